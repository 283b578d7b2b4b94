import assert from 'node:assert/strict';
import { test } from 'node:test';

import { describe as describeCommand, resolveServerCommand, startFailure } from '../src/serverCommand';

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
  assert.match(message, /pip install toolcast/);
  assert.match(startFailure({ ...cmd, source: 'setting' }, 'ENOENT'), /toolcast\.server\.command/);
});
