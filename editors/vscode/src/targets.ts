// Export targets offered by "Toolcast: Export tool to…": the server's `toolcast.export` names, with
// the labels `toolcast providers` uses. ci.sh checks this list against the installed server.

export interface Target {
  id: string;
  label: string;
}

export const TARGETS: readonly Target[] = [
  { id: 'openai', label: 'OpenAI Chat Completions' },
  { id: 'openai-responses', label: 'OpenAI Responses' },
  { id: 'anthropic', label: 'Anthropic' },
  { id: 'gemini', label: 'Gemini (parameters)' },
  { id: 'gemini-json', label: 'Gemini (parametersJsonSchema)' },
  { id: 'mistral', label: 'Mistral' },
  { id: 'mcp', label: 'MCP' },
  { id: 'bedrock', label: 'Bedrock Converse' },
];
