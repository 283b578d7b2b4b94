import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import {
  StderrTail,
  bundledVersions,
  describe as describeCommand,
  exitReason,
  findOnPath,
  noPython,
  resolveServerCommand,
  startFailure,
} from '../src/serverCommand';

const nowhere = (): undefined => undefined;

test('the setting wins, as a list or a string', () => {
  assert.deepEqual(resolveServerCommand({ setting: ['/venv/bin/toolcast', 'serve'], findOnPath: nowhere }), {
    command: '/venv/bin/toolcast',
    args: ['serve'],
    source: 'setting',
  });
  const fromString = resolveServerCommand({ setting: ' toolcast  serve ', findOnPath: nowhere });
  assert.deepEqual(fromString, { command: 'toolcast', args: ['serve'], source: 'setting' });
});

test('a malformed setting is an error, not a guess', () => {
  for (const setting of [[], [''], [1, 2], {}, '   ']) {
    const result = resolveServerCommand({ setting, findOnPath: nowhere });
    assert.ok('error' in result, JSON.stringify(setting));
  }
});

test('without a setting: the Python extension interpreter, then toolcast on PATH, then python3', () => {
  assert.deepEqual(
    resolveServerCommand({ setting: null, pythonInterpreter: ['/envs/a/bin/python'], findOnPath: () => '/usr/bin/toolcast' }),
    { command: '/envs/a/bin/python', args: ['-m', 'toolcast.server'], source: 'python extension' },
  );
  assert.deepEqual(
    resolveServerCommand({ setting: undefined, pythonInterpreter: ['conda', 'run', '-n', 'x', 'python'], findOnPath: nowhere }),
    { command: 'conda', args: ['run', '-n', 'x', 'python', '-m', 'toolcast.server'], source: 'python extension' },
  );
  assert.deepEqual(resolveServerCommand({ setting: null, findOnPath: (n) => `/usr/local/bin/${n}` }), {
    command: '/usr/local/bin/toolcast',
    args: ['serve'],
    source: 'PATH',
  });
  assert.deepEqual(resolveServerCommand({ setting: null, pythonInterpreter: [], findOnPath: nowhere }), {
    command: 'python3',
    args: ['-m', 'toolcast.server'],
    source: 'fallback',
  });
});

test('the failure message names the command and the fix', () => {
  const cmd = { command: '/my env/python', args: ['-m', 'toolcast.server'], source: 'python extension' as const };
  assert.equal(describeCommand(cmd), '"/my env/python" -m toolcast.server');
  const message = startFailure(cmd, 'No module named toolcast');
  assert.match(message, /No module named toolcast/);
  assert.match(message, /pip install <path of a toolcast checkout>/);
  assert.match(startFailure({ ...cmd, source: 'setting' }, 'ENOENT'), /toolcast\.server\.command/);
});

test('a server that exits at start is described by its exit code and its last stderr lines', () => {
  const tail = new StderrTail(60);
  tail.add('Traceback (most recent call last):\n  File "x"\n');
  tail.add('ModuleNotFoundError: No module named \'toolcast\'\n\n');
  assert.equal(tail.text(2), 'File "x" | ModuleNotFoundError: No module named \'toolcast\'');
  assert.ok(tail.text(10).length <= 60 + 10); // bounded: only the last `limit` characters are kept
  assert.equal(exitReason(1, null, tail.text(1)), "it exited with code 1: ModuleNotFoundError: No module named 'toolcast'");
  assert.equal(exitReason(null, 'SIGKILL', ''), 'it was stopped by SIGKILL');
});

test('PATH lookup skips empty and relative entries: they name the current folder, a workspace', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolcast-path-'));
  const program = path.join(dir, 'toolcast');
  fs.writeFileSync(program, '#!/bin/sh\n', { mode: 0o755 });
  const cwd = process.cwd();
  try {
    process.chdir(dir);
    assert.equal(findOnPath('toolcast', ['', '.', 'sub/..'].join(path.delimiter)), undefined);
    assert.equal(findOnPath('toolcast', ['.', dir].join(path.delimiter)), program);
  } finally {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true });
  }
});

const launcher = '/ext/bundled/tool/toolcast_server.py';
const built = ['3.11', '3.12', '3.13', '3.14'];
const versions: Record<string, string> = { '/usr/bin/python3': '3.9', '/usr/bin/python3.12': '3.12', '/opt/py/bin/python': '3.13' };
const probe = (python: readonly string[]): string | undefined => versions[python[0]];
const usrBin = (name: string): string | undefined => (`/usr/bin/${name}` in versions ? `/usr/bin/${name}` : undefined);

test('the .vsix: the setting wins, then toolcast on PATH, then the bundled server with a Python 3.11+', () => {
  const bundled = { launcher, versions: built, probe };
  assert.deepEqual(resolveServerCommand({ setting: ['my-server'], findOnPath: usrBin, bundled }), {
    command: 'my-server', args: [], source: 'setting',
  });
  assert.deepEqual(resolveServerCommand({ setting: null, findOnPath: (n) => (n === 'toolcast' ? '/u/bin/toolcast' : undefined), bundled }), {
    command: '/u/bin/toolcast', args: ['serve'], source: 'PATH',
  });
  // python3 is 3.9 here: python3.12 runs it.
  assert.deepEqual(resolveServerCommand({ setting: null, findOnPath: usrBin, bundled }), {
    command: '/usr/bin/python3.12', args: ['-I', launcher], source: 'bundled',
  });
  // The Python extension's interpreter, when it is suitable; a 3.9 one is passed over.
  assert.deepEqual(resolveServerCommand({ setting: null, pythonInterpreter: ['/opt/py/bin/python'], findOnPath: usrBin, bundled }), {
    command: '/opt/py/bin/python', args: ['-I', launcher], source: 'bundled',
  });
  assert.equal((resolveServerCommand({ setting: null, pythonInterpreter: ['/usr/bin/python3'], findOnPath: usrBin, bundled }) as { command: string }).command,
    '/usr/bin/python3.12');
});

test('toolcast.server.python names the bundled server\'s Python, and says what is wrong with it', () => {
  assert.deepEqual(resolveServerCommand({ setting: null, findOnPath: usrBin, bundled: { launcher, versions: built, probe, pythonSetting: '/opt/py/bin/python' } }), {
    command: '/opt/py/bin/python', args: ['-I', launcher], source: 'bundled',
  });
  const old = resolveServerCommand({ setting: null, findOnPath: usrBin, bundled: { launcher, versions: built, probe, pythonSetting: ['/usr/bin/python3'] } });
  assert.ok('error' in old && /it is Python 3\.9/.test(old.error), JSON.stringify(old));
  const gone = resolveServerCommand({ setting: null, findOnPath: usrBin, bundled: { launcher, versions: built, probe, pythonSetting: '/nowhere/python' } });
  assert.ok('error' in gone && /does not run/.test(gone.error), JSON.stringify(gone));
});

test('no suitable Python: one message saying what to install', () => {
  const result = resolveServerCommand({ setting: null, findOnPath: (n) => (n === 'python3' ? '/usr/bin/python3' : undefined), bundled: { launcher, versions: built, probe } });
  assert.deepEqual(result, { error: noPython(built) });
  assert.match(noPython(built), /Python 3\.11, 3\.12, 3\.13, 3\.14, and none was found/);
  assert.match(noPython(built), /apt install python3/);
  // A build without 3.13 passes over a 3.13 interpreter.
  const older = resolveServerCommand({ setting: null, pythonInterpreter: ['/opt/py/bin/python'], findOnPath: usrBin,
    bundled: { launcher, versions: ['3.11', '3.12'], probe } });
  assert.equal((older as { command: string }).command, '/usr/bin/python3.12');
});

test('the bundled versions are the native/cpXY folders the package has', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolcast-bundled-'));
  for (const name of ['cp314', 'cp311', 'cp39x', 'cp312', 'README']) {
    fs.mkdirSync(path.join(dir, 'native', name), { recursive: true });
  }
  try {
    assert.deepEqual(bundledVersions(dir), ['3.11', '3.12', '3.14']);
  } finally {
    fs.rmSync(dir, { recursive: true });
  }
});
