// Plain-Node smoke test: computes the server command with the extension's own resolver, spawns it,
// opens a tool file with known defects and waits for toolcast's diagnostics. No VS Code needed.
// Also the bundled server (bundled/, from scripts/bundle-python.sh) run by the system's python3 alone.
//   TOOLCAST_PYTHON=/path/to/venv/bin/python [SYSTEM_PYTHON_DIR=/usr/bin] node test/smoke.mjs
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { resolveServerCommand, findOnPath, describe, bundledVersions } = require('../out/src/serverCommand.js');

const python = process.env.TOOLCAST_PYTHON ?? 'python3';
const TEXT = JSON.stringify({
  name: 'get weather',
  description: 'Current weather.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city', 'ghost'] },
}, null, 2);

function frame(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

async function session(cmd) {
  const child = spawn(cmd.command, cmd.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  let buffer = Buffer.alloc(0);
  const waiting = [];
  const inbox = [];
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) break;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))?.[1]);
      if (buffer.length < end + 4 + length) break;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      buffer = buffer.subarray(end + 4 + length);
      inbox.push(message);
      for (const w of [...waiting]) w();
    }
  });
  const next = (pred, what) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; server stderr:\n${stderr}`)), 30_000);
    const check = () => {
      const i = inbox.findIndex(pred);
      if (i >= 0) {
        clearTimeout(timer);
        waiting.splice(waiting.indexOf(check), 1);
        resolve(inbox.splice(i, 1)[0]);
      }
    };
    waiting.push(check);
    check();
  });
  const send = (m) => child.stdin.write(frame(m));
  const uri = 'file:///tmp/smoke/weather.tool.json';
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
    processId: process.pid, rootUri: null, capabilities: { textDocument: { publishDiagnostics: {} } } } });
  const init = await next((m) => m.id === 1, 'initialize');
  if (!init.result?.capabilities) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: {
    textDocument: { uri, languageId: 'json', version: 1, text: TEXT } } });
  const published = await next((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri
    && m.params.diagnostics.length > 0, 'diagnostics');
  const codes = published.params.diagnostics.map((d) => d.code).sort();
  send({ jsonrpc: '2.0', id: 2, method: 'shutdown', params: null });
  await next((m) => m.id === 2, 'shutdown');
  send({ jsonrpc: '2.0', method: 'exit' });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  return { codes, code };
}

const viaInterpreter = resolveServerCommand({ setting: null, pythonInterpreter: [python], findOnPath: () => undefined });
const binDir = path.dirname(python);
const viaPath = resolveServerCommand({ setting: null, findOnPath: (n) => findOnPath(n, binDir) });
const commands = [viaInterpreter, viaPath];
const launcher = path.resolve('bundled/tool/toolcast_server.py');
if (fs.existsSync('bundled/libs/toolcast')) {
  const probe = (py) => {
    try {
      return execFileSync(py[0], ['-I', '-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim();
    } catch {
      return undefined;
    }
  };
  const systemDir = process.env.SYSTEM_PYTHON_DIR ?? '/usr/bin';
  const viaBundle = resolveServerCommand({ setting: null, findOnPath: (n) => findOnPath(n, systemDir), bundled: { launcher, versions: bundledVersions('bundled'), probe } });
  if (viaBundle.source !== 'bundled') throw new Error(`expected the bundled server, got ${JSON.stringify(viaBundle)}`);
  commands.push(viaBundle);
}
let failed = false;
for (const cmd of commands) {
  const { codes, code } = await session(cmd);
  // TC302: `required` names a property that does not exist; TC203: the name has a space.
  const ok = codes.includes('TC302') && codes.includes('TC203') && code === 0;
  console.log(`${ok ? 'ok' : 'FAILED'}: ${describe(cmd)} (${cmd.source}) -> ${codes.join(', ')}; exit ${code}`);
  failed ||= !ok;
}
process.exit(failed ? 1 : 0);
