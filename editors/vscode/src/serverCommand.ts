// How the extension starts toolcast's language server. No `vscode` import: unit-tested with node --test
// and shared with the plain-Node smoke test, so the command tested is the command users get.

import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the choice came from, for the log and for error messages. */
  source: 'setting' | 'python extension' | 'PATH' | 'fallback';
}

export interface CommandInputs {
  /** `toolcast.server.command`: an array (or a string, split on whitespace), or null/undefined. */
  setting: unknown;
  /** The interpreter the Python extension has selected (its full command line), if any. */
  pythonInterpreter?: readonly string[];
  /** Finds an executable on PATH; returns its full path or undefined. */
  findOnPath: (name: string) => string | undefined;
}

/** The server command, or an error message saying what is wrong with the setting. */
export function resolveServerCommand(inputs: CommandInputs): ServerCommand | { error: string } {
  const { setting } = inputs;
  if (setting !== null && setting !== undefined) {
    const parts = typeof setting === 'string' ? setting.trim().split(/\s+/).filter(Boolean) : setting;
    if (!Array.isArray(parts) || parts.length === 0 || !parts.every((p) => typeof p === 'string' && p !== '')) {
      return { error: '`toolcast.server.command` must be a non-empty list of strings, e.g. ["toolcast", "serve"]' };
    }
    return { command: parts[0], args: parts.slice(1), source: 'setting' };
  }
  const python = inputs.pythonInterpreter?.filter((p) => p !== '');
  if (python && python.length > 0) {
    return { command: python[0], args: [...python.slice(1), '-m', 'toolcast.server'], source: 'python extension' };
  }
  const script = inputs.findOnPath('toolcast');
  if (script) {
    return { command: script, args: ['serve'], source: 'PATH' };
  }
  return { command: 'python3', args: ['-m', 'toolcast.server'], source: 'fallback' };
}

/** The command as a user would type it (for messages and the log). */
export function describe(cmd: ServerCommand): string {
  return [cmd.command, ...cmd.args].map((p) => (/\s/.test(p) ? JSON.stringify(p) : p)).join(' ');
}

/** One message for a server that cannot start, with the fix. */
export function startFailure(cmd: ServerCommand, reason: string): string {
  const how = describe(cmd);
  const fix =
    cmd.source === 'setting'
      ? 'Check the `toolcast.server.command` setting.'
      : cmd.source === 'python extension'
        ? 'Install toolcast in the selected interpreter (`python -m pip install <path of a toolcast checkout>`), choose another interpreter, or set `toolcast.server.command`.'
        : 'Install toolcast (`python3 -m pip install <path of a toolcast checkout>`) or set `toolcast.server.command` to the command that starts it.';
  return `toolcast: the language server did not start (\`${how}\`: ${reason}). ${fix}`;
}

/** The last lines a server wrote to stderr (bounded), for the message shown when it does not start. */
export class StderrTail {
  private chunks = '';
  constructor(private readonly limit = 2000) {}
  add(text: string): void {
    this.chunks = (this.chunks + text).slice(-this.limit);
  }
  clear(): void {
    this.chunks = '';
  }
  /** The last `lines` non-empty lines, joined with " | ". */
  text(lines = 3): string {
    return this.chunks
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(-lines)
      .join(' | ');
  }
}

/** Why a server process ended, for a person: exit code or signal, and what it said last. */
export function exitReason(code: number | null, signal: string | null, stderr: string): string {
  const how = signal ? `it was stopped by ${signal}` : code === null ? 'it stopped' : `it exited with code ${code}`;
  return stderr ? `${how}: ${stderr}` : how;
}

/** The full path of an executable named `name` on PATH, or undefined. */
export function findOnPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of envPath.split(path.delimiter)) {
    if (!path.isAbsolute(dir)) {
      continue; // an empty or relative entry means the current folder: a program the workspace holds
    }
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) {
          return candidate;
        }
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
