// The toolcast extension: starts `toolcast serve` (stdio) for JSON files, and adds a status item,
// a restart command and "Export tool to…". Everything else (diagnostics, quick fixes, hover, code
// lenses, exports) comes from the language server.

import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CloseAction,
  type CloseHandlerResult,
  ErrorAction,
  type ErrorHandlerResult,
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  State,
  type StaticFeature,
} from 'vscode-languageclient/node';

import {
  type Bundled,
  type ServerCommand,
  StderrTail,
  bundledVersions,
  describe,
  exitReason,
  findOnPath,
  resolveServerCommand,
  startFailure,
} from './serverCommand';
import { type ServerState, statusView } from './status';
import { TARGETS } from './targets';

/** The settings that name a program (package.json `restrictedConfigurations`, without `toolcast.`). */
const RESTRICTED_SETTINGS = ['server.command', 'server.python'];

/** Crashes within this window that stop automatic restarts. */
const CRASH_LIMIT = 3;
const CRASH_WINDOW_MS = 3 * 60 * 1000;

/**
 * The language client, with one change: until the server has answered `initialize`, the client's own
 * error notifications ("couldn't create connection to server", -32097) go to the log only. The
 * extension shows one message of its own for a server that does not start, with the command and the fix.
 */
class ToolcastClient extends LanguageClient {
  started = false;

  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    super.error(message, data, this.started ? showNotification : false);
  }
}

let client: ToolcastClient | undefined;
let output: vscode.LogOutputChannel;
let status: vscode.StatusBarItem;
let failureShown = false;
let extensionPath = '';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel('toolcast', { log: true });
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.command = 'toolcast.showLog';
  status.show();
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand('toolcast.restart', () => restart(true)),
    vscode.commands.registerCommand('toolcast.showLog', () => output.show(true)),
    vscode.commands.registerCommand('toolcast.exportTool', exportTool),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('toolcast.server')) {
        restartSoon(); // a new command is a new attempt: its failure gets its own message
      }
    }),
    // Trusting the folder makes its server settings count and MCP checks possible: a new server.
    vscode.workspace.onDidGrantWorkspaceTrust(() => restartSoon()),
    { dispose: () => clearTimeout(restartTimer) },
  );
  await start();
}

/**
 * Tells the server whether the folder is trusted (`experimental.toolcast.untrustedWorkspace`): in
 * Restricted Mode it offers nothing that runs a program a workspace file names (the MCP server checks).
 */
function trustFeature(): StaticFeature {
  return {
    fillClientCapabilities: (capabilities) => {
      const experimental = (capabilities.experimental ?? {}) as Record<string, unknown>;
      capabilities.experimental = { ...experimental, toolcast: { untrustedWorkspace: !vscode.workspace.isTrusted } };
    },
    initialize: () => undefined,
    getState: () => ({ kind: 'static' }),
    clear: () => undefined,
  };
}

/** In Restricted Mode, one log line: the folder's server settings wait for trust. */
function logRestrictedMode(): void {
  if (!vscode.workspace.isTrusted) {
    const keys = RESTRICTED_SETTINGS.map((k) => `toolcast.${k}`).join(', ');
    output.info(`Restricted Mode: this folder's ${keys} are not used and MCP server checks are not offered until you trust it`);
  }
}

function setState(state: ServerState, detail = ''): void {
  const view = statusView(state, detail);
  status.text = view.text;
  status.tooltip = view.tooltip;
  status.backgroundColor = view.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
}

/** The interpreter the Python extension has selected for the workspace, if it is installed. */
async function pythonInterpreter(): Promise<string[] | undefined> {
  const python = vscode.extensions.getExtension('ms-python.python');
  if (!python) {
    return undefined;
  }
  try {
    const api = python.isActive ? python.exports : await python.activate();
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const details = await api?.settings?.getExecutionDetails?.(resource);
    const command: unknown = details?.execCommand;
    return Array.isArray(command) && command.every((p) => typeof p === 'string') ? command : undefined;
  } catch (err) {
    output.warn(`could not ask the Python extension for its interpreter: ${String(err)}`);
    return undefined;
  }
}

/** The `major.minor` of a Python, or undefined if it does not run (a few ms; once per start). */
function pythonVersion(python: readonly string[]): string | undefined {
  try {
    const out = execFileSync(python[0], [...python.slice(1), '-I', '-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
      encoding: 'utf8',
      timeout: 15_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return /^\d+\.\d+$/.test(out.trim()) ? out.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The server the .vsix carries (bundled/, see scripts/bundle-python.sh), if this build has it. */
function bundledServer(config: vscode.WorkspaceConfiguration): Bundled | undefined {
  const bundled = path.join(extensionPath, 'bundled');
  if (!fs.existsSync(path.join(bundled, 'libs', 'toolcast'))) {
    return undefined;
  }
  const launcher = path.join(bundled, 'tool', 'toolcast_server.py');
  return { launcher, versions: bundledVersions(bundled), pythonSetting: config.get('server.python'), probe: pythonVersion };
}

function commandExists(cmd: ServerCommand): boolean {
  if (path.isAbsolute(cmd.command) || cmd.command.includes(path.sep)) {
    return fs.existsSync(cmd.command);
  }
  return findOnPath(cmd.command) !== undefined;
}

async function showFailure(message: string): Promise<void> {
  setState('failed', message);
  output.error(message);
  if (failureShown) {
    return; // one message per failure, not one per retry
  }
  failureShown = true;
  const choice = await vscode.window.showErrorMessage(message, 'Open Settings', 'Show Log');
  if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'toolcast.server'); // .command and .python
  } else if (choice === 'Show Log') {
    output.show(true);
  }
}

async function start(): Promise<void> {
  setState('starting');
  logRestrictedMode();
  // In Restricted Mode VS Code leaves the folder's values of server.* out (restricted configurations).
  const config = vscode.workspace.getConfiguration('toolcast');
  const resolved = resolveServerCommand({
    setting: config.get('server.command'),
    bundled: bundledServer(config),
    // The interpreter the Python extension picks may be one inside the folder (its .venv): not until trusted.
    pythonInterpreter: vscode.workspace.isTrusted ? await pythonInterpreter() : undefined,
    findOnPath: (name) => findOnPath(name),
  });
  if ('error' in resolved) {
    await showFailure(`toolcast: ${resolved.error}`);
    return;
  }
  output.info(`starting the language server: ${describe(resolved)} (from ${resolved.source})`);
  if (!commandExists(resolved)) {
    await showFailure(startFailure(resolved, `${resolved.command} not found`));
    return;
  }
  // The extension spawns the server itself (stdio is toolcast's default; nothing is appended to the
  // command), so it knows the exit code and the last lines of stderr when the server does not start.
  const tail = new StderrTail();
  let exited: Promise<string> = Promise.resolve('it stopped');
  const serverOptions: ServerOptions = async () => {
    tail.clear();
    const proc = spawn(resolved.command, resolved.args, { stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
    // Its pipes close before its exit status is known: the failure message waits for the status.
    exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => resolve(exitReason(code, signal, tail.text())));
      proc.once('error', (err) => resolve(err.message));
    });
    // The client copies stderr into the log itself; the tail is kept for the failure message.
    proc.stderr?.on('data', (chunk: Buffer) => tail.add(chunk.toString('utf8')));
    return proc;
  };
  let running = false;
  /**
   * One message for a server that did not start. Its exit status and last stderr lines say why
   * better than the client's error ("connection got disposed"), so they are waited for (at most 3 s:
   * a server that answered `initialize` with an error may still be running).
   */
  const reportStartFailure = async (err?: unknown): Promise<void> => {
    const fallback = err === undefined ? exitReason(null, null, tail.text()) : err instanceof Error ? err.message : String(err);
    const reason = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve(fallback), 3000))]);
    await showFailure(startFailure(resolved, reason));
  };
  const crashes: number[] = [];
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'json' },
      { scheme: 'file', language: 'jsonc' },
      { scheme: 'untitled', language: 'json' },
    ],
    outputChannel: output,
    synchronize: { configurationSection: 'toolcast' },
    initializationFailedHandler: (error) => {
      void reportStartFailure(error);
      return false; // do not retry: the same command would fail the same way
    },
    errorHandler: {
      error: (): ErrorHandlerResult => ({ action: ErrorAction.Continue, handled: true }),
      closed: (): CloseHandlerResult => {
        if (!running) {
          // It never got as far as answering `initialize`: the same command would fail again.
          void reportStartFailure();
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        const now = Date.now();
        crashes.push(now);
        while (crashes.length > 0 && now - crashes[0] > CRASH_WINDOW_MS) {
          crashes.shift();
        }
        if (crashes.length >= CRASH_LIMIT) {
          void showFailure(
            startFailure(resolved, `it stopped ${crashes.length} times in 3 minutes; see the toolcast log`),
          );
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        output.warn('the language server stopped; restarting it');
        return { action: CloseAction.Restart, handled: true };
      },
    },
  };
  const next = new ToolcastClient('toolcast', 'toolcast', serverOptions, clientOptions);
  next.registerFeature(trustFeature());
  next.onDidChangeState((e) => {
    if (e.newState === State.Running) {
      running = true;
      next.started = true;
      failureShown = false;
      setState('running', describe(resolved));
    } else if (e.newState === State.Starting) {
      setState('starting');
    } else if (status.text !== statusView('failed').text) {
      setState('stopped');
    }
  });
  client = next;
  try {
    await next.start();
  } catch (err) {
    await reportStartFailure(err);
  }
}

async function stop(): Promise<void> {
  const current = client;
  client = undefined;
  if (current && current.state === State.Running) {
    try {
      await current.stop();
    } catch (err) {
      output.warn(`stopping the language server: ${String(err)}`);
    }
  }
}

let restarting: Promise<void> = Promise.resolve();
let restartTimer: NodeJS.Timeout | undefined;

/**
 * Restart the server; `byUser` (the command, or a change of `toolcast.server.*`) allows a new failure
 * message. Restarts run one after the other.
 */
function restart(byUser: boolean): Promise<void> {
  restarting = restarting.then(async () => {
    if (byUser) {
      failureShown = false;
    }
    await stop();
    await start();
  });
  return restarting;
}

/**
 * One restart for events that come together: trusting a folder changes its settings first (the
 * restricted ones now count) and then the trust state, and the server must start once, trusted.
 */
function restartSoon(): void {
  clearTimeout(restartTimer);
  restartTimer = setTimeout(() => void restart(true), 300);
}

async function exportTool(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !['json', 'jsonc'].includes(editor.document.languageId)) {
    void vscode.window.showInformationMessage('toolcast: open a tool file (JSON) to export it.');
    return;
  }
  if (!client || client.state !== State.Running) {
    void vscode.window.showErrorMessage('toolcast: the language server is not running (see "Toolcast: Show Log").');
    return;
  }
  const pick = await vscode.window.showQuickPick(
    TARGETS.map((t) => ({ label: t.label, description: t.id, id: t.id })),
    { placeHolder: 'Export the tools of this file to…' },
  );
  if (!pick) {
    return;
  }
  try {
    const result: unknown = await client.sendRequest(ExecuteCommandRequest.type, {
      command: 'toolcast.export',
      arguments: [editor.document.uri.toString(), pick.id, null],
    });
    const written = (result as { path?: unknown } | null)?.path;
    if (typeof written === 'string') {
      await vscode.window.showTextDocument(vscode.Uri.file(written), { preview: false });
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(`toolcast: export to ${pick.label} failed: ${message}`);
  }
}
