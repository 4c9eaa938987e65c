// Exits 0 when this Node satisfies package.json's `engines.node` (a list of `^X.Y.Z` ranges, the
// supported LTS lines), 1 otherwise. Runs before any dependency is installed, so no semver package.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const parse = (version) => version.replace(/^[\^v]/, '').split('.').map(Number);
const [major, minor, patch] = parse(process.versions.node);
const supported = engines.node.split('||').some((range) => {
  const [wantMajor, wantMinor = 0, wantPatch = 0] = parse(range.trim());
  return major === wantMajor && (minor > wantMinor || (minor === wantMinor && patch >= wantPatch));
});
if (!supported) console.error(`Node ${process.versions.node} is not supported here: engines.node is "${engines.node}"`);
process.exit(supported ? 0 : 1);
