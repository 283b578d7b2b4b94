import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

// Compiled to out/test/: the extension's folder is two up, the repository four.
const extension = path.resolve(__dirname, '..', '..');
const profiles = path.resolve(extension, '..', '..', 'schemas', 'consumers');

interface Setting {
  type: string | string[];
  items?: { enum?: string[]; enumDescriptions?: string[] };
  minimum?: number;
  default?: unknown;
  markdownDescription?: string;
}

function settings(): Record<string, Setting> {
  const manifest = JSON.parse(fs.readFileSync(path.join(extension, 'package.json'), 'utf8'));
  return manifest.contributes.configuration.properties;
}

test('toolcast.consumers offers every host and API the server has a profile for, labelled', () => {
  const known = fs
    .readdirSync(profiles)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(profiles, f), 'utf8')) as { consumer: string; display_name: string });
  const items = settings()['toolcast.consumers'].items;
  assert.deepEqual(items?.enum, known.map((p) => p.consumer).sort());
  assert.deepEqual(items?.enumDescriptions, [...known].sort((a, b) => a.consumer.localeCompare(b.consumer)).map((p) => p.display_name));
});

test('the budgets are positive integers and every consumer setting is unset by default and described', () => {
  const all = settings();
  for (const key of ['toolcast.max_tokens', 'toolcast.max_tools']) {
    assert.deepEqual(all[key].type, ['integer', 'null'], key);
    assert.equal(all[key].minimum, 1, key);
  }
  for (const key of ['toolcast.consumers', 'toolcast.models', 'toolcast.server_name', 'toolcast.max_tokens', 'toolcast.max_tools']) {
    assert.equal(all[key].default, null, key);
    assert.ok((all[key].markdownDescription ?? '').length > 40, key);
  }
});
