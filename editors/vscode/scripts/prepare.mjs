// Files the package takes from the repository: the tool-file schema (for jsonValidation) and the licence.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(here, '..', '..');
mkdirSync(join(here, 'schemas'), { recursive: true });
copyFileSync(join(repo, 'schemas', 'tool.schema.json'), join(here, 'schemas', 'tool.schema.json'));
copyFileSync(join(repo, 'LICENSE'), join(here, 'LICENSE'));
