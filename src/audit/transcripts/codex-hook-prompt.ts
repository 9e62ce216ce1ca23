// Codex writes a blocking Stop hook's reason back into the rollout as a user message wrapped in
// `<hook_prompt hook_run_id="stop:...">REASON</hook_prompt>` (seen on 0.154): the hook's words, not the user's.

const HOOK_PROMPT = /^\s*<hook_prompt\b[^>]*>([\s\S]*?)<\/hook_prompt>\s*$/;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

const decodeEntities = (text: string): string =>
  text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[\da-f]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

/** The reason inside a `<hook_prompt>` message (entities decoded), or null when `text` is not one. */
export function hookPromptText(text: string): string | null {
  const inner = HOOK_PROMPT.exec(text)?.[1];
  return inner === undefined ? null : decodeEntities(inner).trim();
}
