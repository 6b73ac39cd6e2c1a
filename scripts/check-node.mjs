// Stops `npm install` and `npm start` early, with a clear message, on a Node.js older than the
// project needs (package.json engines), instead of a stack trace from a native module built for
// another version. Plain JavaScript that any Node.js since 12 can parse and run.
import fs from 'node:fs';

const wanted = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const min = /(\d+)\.(\d+)/.exec(wanted);
const [major, minor] = process.versions.node.split('.').map(Number);
if (!min || major < Number(min[1]) || (major === Number(min[1]) && minor < Number(min[2]))) {
  console.error(
    `\nInkpass needs Node.js ${wanted} (Node 24 LTS recommended); this is Node.js ${process.versions.node}.\n` +
      'Install Node 24, or on Linux x64 run: eval "$(scripts/provision-node.sh)"  (see README).\n',
  );
  process.exit(1);
}
