// The name a command word runs as, the text after its last `/`: what every pass compares with a
// program's name (`.venv/bin/pytest` is pytest).

/** The text after the last `/` (`.venv/bin/pytest` -> `pytest`). */
export function basename(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash < 0 ? word : word.slice(slash + 1);
}
