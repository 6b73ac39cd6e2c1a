/**
 * Loaded with `node --import` (through NODE_OPTIONS) into a command a test runs, to run it at
 * another time: INKPASS_FAKE_NOW (unix seconds) becomes the command's "now", and its clock keeps
 * ticking from there. Only for commands (the renewal command on a given day); the servers
 * always run on the real clock.
 */
const target = Number(process.env.INKPASS_FAKE_NOW);
if (Number.isFinite(target) && target > 0) {
  const RealDate = Date;
  const offset = target * 1000 - RealDate.now();
  class FakeDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = FakeDate;
}
