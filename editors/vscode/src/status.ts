// The status bar item's text for each server state. No `vscode` import (unit-tested).

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Whether the item uses the error background. */
  error: boolean;
}

export function statusView(state: ServerState, detail = ''): StatusView {
  const suffix = detail ? `\n${detail}` : '';
  switch (state) {
    case 'starting':
      return { text: '$(sync~spin) toolcast', tooltip: `toolcast: starting the language server${suffix}`, error: false };
    case 'running':
      return { text: '$(check) toolcast', tooltip: `toolcast: checking tool files${suffix}`, error: false };
    case 'stopped':
      return { text: '$(circle-slash) toolcast', tooltip: `toolcast: the language server is stopped${suffix}`, error: false };
    case 'failed':
      return { text: '$(error) toolcast', tooltip: `toolcast: the language server failed${suffix}`, error: true };
  }
}
