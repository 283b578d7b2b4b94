// How the extension starts toolcast's language server. No `vscode` import: unit-tested with node --test
// and shared with the plain-Node smoke test, so the command tested is the command users get.

import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the choice came from, for the log and for error messages. */
  source: 'setting' | 'python extension' | 'PATH' | 'bundled' | 'fallback';
}

/** The server inside the extension: a launcher run by a Python the machine has. */
export interface Bundled {
  /** bundled/tool/toolcast_server.py */
  launcher: string;
  /** The Python versions it has builds for (`major.minor`, from bundled/native/cpXY), oldest first. */
  versions: readonly string[];
  /** `toolcast.server.python`: the interpreter to run it with (a list or a string), if set. */
  pythonSetting?: unknown;
  /** Its `major.minor` version, or undefined if it does not run. */
  probe: (python: readonly string[]) => string | undefined;
}

export interface CommandInputs {
  /** `toolcast.server.command`: an array (or a string, split on whitespace), or null/undefined. */
  setting: unknown;
  /** The interpreter the Python extension has selected (its full command line), if any. */
  pythonInterpreter?: readonly string[];
  /** Finds an executable on PATH; returns its full path or undefined. */
  findOnPath: (name: string) => string | undefined;
  /** The bundled server, when the extension has one (the packaged .vsix). */
  bundled?: Bundled;
}

function words(setting: unknown): string[] | undefined {
  const parts = typeof setting === 'string' ? setting.trim().split(/\s+/).filter(Boolean) : setting;
  return Array.isArray(parts) && parts.length > 0 && parts.every((p) => typeof p === 'string' && p !== '')
    ? parts
    : undefined;
}

/** The Python versions a bundled/ folder has builds for (its native/cpXY folders), oldest first. */
export function bundledVersions(bundled: string): string[] {
  return fs
    .readdirSync(path.join(bundled, 'native'))
    .map((tag) => /^cp3(\d+)$/.exec(tag))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
    .map((minor) => `3.${minor}`);
}

/** What to install when no Python can run the bundled server. */
export function noPython(versions: readonly string[]): string {
  return (
    `the bundled server needs Python ${versions.join(', ')}, and none was found. ` +
    'Install python3 (e.g. `sudo apt install python3`, `brew install python@3.13`, or from python.org), ' +
    'or set `toolcast.server.python` to an interpreter, or `toolcast.server.command` to a toolcast server.'
  );
}

function runBundled(python: readonly string[], bundled: Bundled): ServerCommand {
  return { command: python[0], args: [...python.slice(1), '-I', bundled.launcher], source: 'bundled' };
}

/**
 * The bundled server with the first suitable Python: `toolcast.server.python`, else the Python
 * extension's interpreter, else python3 or python3.X on PATH.
 */
function bundledCommand(inputs: CommandInputs, bundled: Bundled): ServerCommand | { error: string } {
  const suitable = (python: readonly string[]): boolean => {
    const version = bundled.probe(python);
    return version !== undefined && bundled.versions.includes(version);
  };
  if (bundled.pythonSetting !== null && bundled.pythonSetting !== undefined) {
    const python = words(bundled.pythonSetting);
    if (!python) {
      return { error: '`toolcast.server.python` must be the path of a Python interpreter, e.g. "/usr/bin/python3"' };
    }
    if (!suitable(python)) {
      const version = bundled.probe(python);
      const found = version === undefined ? 'it does not run' : `it is Python ${version}`;
      return { error: `\`toolcast.server.python\` (${python.join(' ')}): ${found}. ${noPython(bundled.versions)}` };
    }
    return runBundled(python, bundled);
  }
  const interpreter = inputs.pythonInterpreter?.filter((p) => p !== '');
  if (interpreter && interpreter.length > 0 && suitable(interpreter)) {
    return runBundled(interpreter, bundled);
  }
  for (const name of ['python3', ...[...bundled.versions].reverse().map((v) => `python${v}`)]) {
    const found = inputs.findOnPath(name);
    if (found && suitable([found])) {
      return runBundled([found], bundled);
    }
  }
  return { error: noPython(bundled.versions) };
}

/**
 * The server command, or an error message saying what is wrong. With a bundled server (the .vsix):
 * `toolcast.server.command`; else the bundled server with `toolcast.server.python`; else `toolcast` on
 * PATH (one the user installed); else the bundled server with the Python extension's interpreter or a
 * python3 on PATH. Without one (a development build): the setting, the Python extension's interpreter
 * with `-m toolcast.server`, `toolcast` on PATH, `python3 -m toolcast.server`.
 */
export function resolveServerCommand(inputs: CommandInputs): ServerCommand | { error: string } {
  const { setting, bundled } = inputs;
  if (setting !== null && setting !== undefined) {
    const parts = words(setting);
    if (!parts) {
      return { error: '`toolcast.server.command` must be a non-empty list of strings, e.g. ["toolcast", "serve"]' };
    }
    return { command: parts[0], args: parts.slice(1), source: 'setting' };
  }
  if (bundled) {
    if (bundled.pythonSetting === null || bundled.pythonSetting === undefined) {
      const script = inputs.findOnPath('toolcast');
      if (script) {
        return { command: script, args: ['serve'], source: 'PATH' };
      }
    }
    return bundledCommand(inputs, bundled);
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
      : cmd.source === 'bundled'
        ? 'Set `toolcast.server.python` to another Python 3.11+, or `toolcast.server.command` to a toolcast server.'
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
