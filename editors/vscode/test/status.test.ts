import assert from 'node:assert/strict';
import { test } from 'node:test';

import { type ServerState, statusView } from '../src/status';
import { TARGETS } from '../src/targets';

test('every server state has its own text, and only a failure is shown as an error', () => {
  const states: ServerState[] = ['starting', 'running', 'stopped', 'failed'];
  const views = states.map((s) => statusView(s, 'detail'));
  assert.equal(new Set(views.map((v) => v.text)).size, states.length);
  assert.deepEqual(views.map((v) => v.error), [false, false, false, true]);
  assert.ok(views.every((v) => v.tooltip.endsWith('\ndetail')));
});

test('targets are unique and labelled', () => {
  assert.equal(new Set(TARGETS.map((t) => t.id)).size, TARGETS.length);
  assert.ok(TARGETS.every((t) => t.label.length > 0));
});
