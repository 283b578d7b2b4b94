// Checks the packaged .vsix: the manifest says what the extension contributes, and the files it
// needs at run time are inside. Usage: node scripts/check-vsix.mjs toolcast.vsix
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';

const vsix = process.argv[2];
const list = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter(Boolean);
for (const needed of ['extension/package.json', 'extension/dist/extension.js', 'extension/schemas/tool.schema.json',
  'extension/LICENSE.txt', 'extension.vsixmanifest']) {
  assert.ok(list.includes(needed), `${needed} missing from ${vsix}`);
}
assert.ok(list.some((f) => f.toLowerCase() === 'extension/readme.md'), 'the README (marketplace page) is packaged');
for (const unwanted of ['extension/src/', 'extension/node_modules/', 'extension/out/', 'extension/test/',
  'extension/.gitignore']) {
  assert.ok(!list.some((f) => f.startsWith(unwanted)), `${unwanted} should not be packaged`);
}
// The bundled server: toolcast and its dependencies, rpds-py and regex built for each supported CPython, no caches.
for (const needed of ['extension/bundled/tool/toolcast_server.py', 'extension/bundled/libs/toolcast/server/__main__.py',
  'extension/bundled/libs/pygls/__init__.py', 'extension/bundled/libs/lsprotocol/types.py',
  'extension/bundled/libs/jsonschema/__init__.py', 'extension/bundled/libs/referencing/__init__.py']) {
  assert.ok(list.includes(needed), `${needed} missing from ${vsix}`);
}
for (const tag of ['cp311', 'cp312', 'cp313', 'cp314']) {
  assert.ok(list.some((f) => f.startsWith(`extension/bundled/native/${tag}/rpds/rpds.cpython-${tag.slice(2)}-x86_64-linux-gnu.so`)),
    `rpds-py for ${tag} missing`);
  assert.ok(list.some((f) => f.startsWith(`extension/bundled/native/${tag}/regex/_regex.cpython-${tag.slice(2)}-x86_64-linux-gnu.so`)),
    `regex for ${tag} missing`);
}
assert.ok(!list.some((f) => f.includes('__pycache__') || f.startsWith('extension/bundled/libs/rpds')
  || f.startsWith('extension/bundled/libs/regex/')), 'caches or a stray rpds or regex');
const xml = execFileSync('unzip', ['-p', vsix, 'extension.vsixmanifest'], { encoding: 'utf8' });
assert.match(xml, /TargetPlatform="linux-x64"/, 'a platform VSIX (rpds-py and regex are compiled)');
const manifest = JSON.parse(execFileSync('unzip', ['-p', vsix, 'extension/package.json'], { encoding: 'utf8' }));
assert.equal(manifest.name, 'toolcast');
assert.equal(manifest.main, './dist/extension.js');
const commands = manifest.contributes.commands.map((c) => c.command).sort();
assert.deepEqual(commands, ['toolcast.exportTool', 'toolcast.restart', 'toolcast.showLog']);
const settings = Object.keys(manifest.contributes.configuration.properties);
for (const key of ['toolcast.server.command', 'toolcast.server.python', 'toolcast.targets', 'toolcast.select', 'toolcast.ignore',
  'toolcast.severity', 'toolcast.globs', 'toolcast.target_options', 'toolcast.max_diagnostics']) {
  assert.ok(settings.includes(key), `setting ${key} missing`);
}
assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations,
  ['toolcast.server.command', 'toolcast.server.python'], 'the settings that name a program are restricted');
assert.ok(manifest.contributes.jsonValidation.some((v) => v.url === './schemas/tool.schema.json'
  && v.fileMatch.includes('*.tool.json')));
const schema = JSON.parse(execFileSync('unzip', ['-p', vsix, 'extension/schemas/tool.schema.json'], { encoding: 'utf8' }));
assert.equal(schema.$id, 'urn:toolcast:tool.schema.json');
const bundle = execFileSync('unzip', ['-p', vsix, 'extension/dist/extension.js'], { encoding: 'utf8' });
assert.ok(bundle.includes('toolcast.exportTool') && !/require\("vscode-languageclient/.test(bundle),
  'the bundle holds the extension and its dependencies (only `vscode` is external)');
console.log(`${vsix}: ${list.length} files, manifest and contents as expected`);
