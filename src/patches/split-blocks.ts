// Splitting a patch into file blocks without losing a byte.

/** True when `line` opens a file block: `diff --git `, `diff --cc ` or `diff --combined `. */
export function isBlockHeader(line: string): boolean {
  return line.startsWith("diff --git ") || line.startsWith("diff --cc ") || line.startsWith("diff --combined ");
}

/**
 * Splits a patch into blocks of lines: a new block at each line beginning `diff --git `,
 * `diff --cc ` or `diff --combined `; lines before the first header form a leading block. Lines
 * split on LF only and keep it, so `blocks.flat().join("") === patch` for every input.
 * @example splitPatchBlocks("diff --git a/x b/x\n+1\n") // [["diff --git a/x b/x\n", "+1\n"]]
 */
export function splitPatchBlocks(patch: string): string[][] {
  const blocks: string[][] = [];
  let block: string[] = [];
  let at = 0;
  while (at < patch.length) {
    const newline = patch.indexOf("\n", at);
    const next = newline < 0 ? patch.length : newline + 1;
    const line = patch.slice(at, next);
    if (block.length > 0 && patch.charCodeAt(at) === 0x64 && isBlockHeader(line)) {
      blocks.push(block);
      block = [];
    }
    block.push(line);
    at = next;
  }
  if (block.length > 0) blocks.push(block);
  return blocks;
}
