/**
 * Loaded with `node --import` (through NODE_OPTIONS) into a command a test runs, to run it at
 * another time: INKPASS_FAKE_NOW (unix seconds) becomes the command's "now", and its clock keeps
 * ticking from there, or, with INKPASS_FAKE_FROZEN=1, stays at that second (for a server that
 * must answer at an exact second however long it took to start: tests/integration/expiry.test.ts).
 */
const target = Number(process.env.INKPASS_FAKE_NOW);
if (Number.isFinite(target) && target > 0) {
  const RealDate = Date;
  const frozen = process.env.INKPASS_FAKE_FROZEN === '1';
  const offset = target * 1000 - RealDate.now();
  const now = () => (frozen ? target * 1000 : RealDate.now() + offset);
  class FakeDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = FakeDate;
}
