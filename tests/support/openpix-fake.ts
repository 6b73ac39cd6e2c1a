/**
 * A local stand-in for Woovi's (OpenPix's) API, for tests only (docs/payments.md, "Refunds at the
 * providers"): reading a charge (`GET /api/v1/charge/{correlationID}`; tests make and pay charges
 * with `addCharge` and `pay`; the charge calls themselves are tested against
 * openpix.server.test.ts's own stand-in) and the refund calls:
 *
 *   POST {base}/api/v1/refund  {correlationID, transactionEndToEndId, value, comment?} -> {refund}
 *   GET  {base}/api/v1/refund/{correlationID or refundId}                                -> {refund}, 404 unknown
 *
 * with the app ID as `Authorization` (401 otherwise). A refund names the payment by its
 * `transactionEndToEndId`, which Woovi documents as "your transaction ID, or endToEnd ID": the
 * fake takes either of a paid charge's two ids. It answers a refund IN_PROCESSING or CONFIRMED
 * (`refundStatus`, CONFIRMED by default) and refuses, with a 400 and a Portuguese `error` as Woovi
 * does, an unknown payment, more than is left of it, a value that is not positive cents, and a
 * correlationID it already holds (a repeat: the caller reads that refund back).
 *
 * Controls: `pay(correlationID)` plays the payer; `refundStatus` decides how new refunds start;
 * `finishRefund(correlationID, 'CONFIRMED' | 'REJECTED')` ends an IN_PROCESSING one (a REJECTED
 * refund gives nothing back, so its value is refundable again); `refuseNextRefund(status, error)`
 * answers the next POST /refund with that status and message, creating nothing; `failNext(kind)`
 * makes the next request answer 500, hang (never answer), answer HTML, or be carried out and then
 * have its connection cut (`drop`: the refund exists, its answer was lost).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeRefundStatus = 'IN_PROCESSING' | 'CONFIRMED' | 'REJECTED';

export interface FakeOpenPixRefund {
  correlationID: string;
  refundId: string;
  /** The paid charge's transactionID the refund gives back. */
  transactionID: string;
  endToEndId: string;
  value: number;
  status: FakeRefundStatus;
  comment: string | null;
  time: string;
}

export interface FakeOpenPixCharge {
  correlationID: string;
  value: number;
  status: 'ACTIVE' | 'COMPLETED' | 'EXPIRED';
  transactionID: string | null;
  endToEndId: string | null;
  brCode: string;
  expiresDate: string;
  paidAt: string | null;
}

export interface FakeOpenPix {
  readonly baseUrl: string;
  readonly appId: string;
  readonly requests: { method: string; url: string; body: string }[];
  readonly charges: ReadonlyMap<string, FakeOpenPixCharge>;
  readonly refunds: ReadonlyMap<string, FakeOpenPixRefund>;
  /** How a new refund starts. */
  refundStatus: 'IN_PROCESSING' | 'CONFIRMED';
  /** Makes a charge (ACTIVE) without the provider, for tests that start from a payment. */
  addCharge(correlationID: string, value: number): void;
  /** Pays an active charge; answers its transactionID. */
  pay(correlationID: string): string;
  finishRefund(correlationID: string, status: 'CONFIRMED' | 'REJECTED'): void;
  refuseNextRefund(status: number, error: string): void;
  failNext(kind: '500' | 'hang' | 'not-json' | 'drop'): void;
  close(): Promise<void>;
}

export async function startFakeOpenPix(options: { appId?: string } = {}): Promise<FakeOpenPix> {
  const appId = options.appId ?? 'fake-openpix-app-id';
  const requests: FakeOpenPix['requests'] = [];
  const charges = new Map<string, FakeOpenPixCharge>();
  const refunds = new Map<string, FakeOpenPixRefund>();
  let refusal: { status: number; error: string } | null = null;
  let failure: '500' | 'hang' | 'not-json' | 'drop' | null = null;
  const hung = new Set<http.ServerResponse>();

  const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });
  const refundOut = (r: FakeOpenPixRefund) => ({
    correlationID: r.correlationID, refundId: r.refundId, status: r.status, value: r.value, endToEndId: r.endToEndId, time: r.time, ...(r.comment ? { comment: r.comment } : {}),
  });
  const chargeOut = (c: FakeOpenPixCharge) => ({
    correlationID: c.correlationID, value: c.value, status: c.status, brCode: c.brCode, expiresDate: c.expiresDate,
    ...(c.transactionID ? { transactionID: c.transactionID, paidAt: c.paidAt } : {}),
  });
  const paymentOf = (id: string) => [...charges.values()].find((c) => c.status === 'COMPLETED' && (c.transactionID === id || c.endToEndId === id));

  function route(method: string, url: string, raw: string, auth: string | undefined): { status: number; body: string } {
    if (auth !== appId) return json(401, { error: 'appID inválido' });
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return json(400, { error: 'JSON inválido' });
      }
    }
    const charge = /^\/api\/v1\/charge\/([^/?]+)$/.exec(url);
    if (charge && method === 'GET') {
      const found = charges.get(decodeURIComponent(charge[1]!));
      return found ? json(200, { charge: chargeOut(found) }) : json(404, { error: 'Cobrança não encontrada' });
    }
    if (method === 'POST' && url === '/api/v1/refund') return createRefund(body);
    const one = /^\/api\/v1\/refund\/([^/?]+)$/.exec(url);
    if (one && method === 'GET') {
      const id = decodeURIComponent(one[1]!);
      const found = refunds.get(id) ?? [...refunds.values()].find((r) => r.refundId === id);
      return found ? json(200, { refund: refundOut(found) }) : json(404, { error: 'Reembolso não encontrado' });
    }
    return json(404, { error: 'not found' });
  }

  function createRefund(body: Record<string, unknown>): { status: number; body: string } {
    if (refusal) {
      const r = refusal;
      refusal = null;
      return json(r.status, { error: r.error });
    }
    const { correlationID, transactionEndToEndId, value, comment } = body;
    if (typeof correlationID !== 'string' || !correlationID) return json(400, { error: 'correlationID é obrigatório' });
    if (refunds.has(correlationID)) return json(400, { error: 'Já existe um reembolso com esse correlationID' });
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) return json(400, { error: 'Valor inválido' });
    const paid = typeof transactionEndToEndId === 'string' ? paymentOf(transactionEndToEndId) : undefined;
    if (!paid) return json(400, { error: 'Transação não encontrada' });
    const given = [...refunds.values()].filter((r) => r.transactionID === paid.transactionID && r.status !== 'REJECTED').reduce((sum, r) => sum + r.value, 0);
    if (value > paid.value - given) return json(400, { error: 'Valor do reembolso maior que o valor disponível da transação' });
    const refund: FakeOpenPixRefund = {
      correlationID,
      refundId: crypto.randomBytes(12).toString('hex'),
      transactionID: paid.transactionID!,
      endToEndId: `D${crypto.randomBytes(15).toString('hex').toUpperCase().slice(0, 31)}`,
      value,
      status: fake.refundStatus,
      comment: typeof comment === 'string' ? comment : null,
      time: new Date().toISOString(),
    };
    refunds.set(correlationID, refund);
    return json(200, { refund: refundOut(refund) });
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (c: string) => (raw += c)).on('end', () => {
      requests.push({ method: req.method!, url: req.url!, body: raw });
      const failing = failure;
      failure = null;
      if (failing === 'hang') {
        hung.add(res);
        return;
      }
      if (failing === '500') return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal error' }));
      if (failing === 'not-json') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
      const answer = route(req.method!, req.url!, raw, req.headers.authorization);
      if (failing === 'drop') return void res.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeOpenPix = {
    baseUrl,
    appId,
    requests,
    charges,
    refunds,
    refundStatus: 'CONFIRMED',
    addCharge(correlationID, value) {
      charges.set(correlationID, {
        correlationID, value, status: 'ACTIVE', transactionID: null, endToEndId: null,
        // Not a BR Code a bank reads: only getCharge reads these charges, and it does not parse it.
        brCode: `fake-brcode-${correlationID}`,
        expiresDate: new Date(Date.now() + 3600_000).toISOString(),
        paidAt: null,
      });
    },
    pay(correlationID) {
      const charge = charges.get(correlationID);
      if (!charge || charge.status !== 'ACTIVE') throw new Error(`the fake cannot pay ${correlationID}`);
      charge.status = 'COMPLETED';
      charge.transactionID = crypto.randomBytes(16).toString('hex');
      charge.endToEndId = `E${crypto.randomBytes(16).toString('hex').toUpperCase().slice(0, 31)}`;
      charge.paidAt = new Date().toISOString();
      return charge.transactionID;
    },
    finishRefund(correlationID, status) {
      const refund = refunds.get(correlationID);
      if (!refund || refund.status !== 'IN_PROCESSING') throw new Error(`the fake has no refund ${correlationID} in processing`);
      refund.status = status;
    },
    refuseNextRefund(status, error) {
      refusal = { status, error };
    },
    failNext(kind) {
      failure = kind;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
