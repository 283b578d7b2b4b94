import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import {
  StderrTail,
  describe as describeCommand,
  exitReason,
  findOnPath,
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

