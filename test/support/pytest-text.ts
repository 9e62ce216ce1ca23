// pytest's own line shapes for hand-written outputs, so they look as pytest prints them.

/** A rule as pytest's terminal writer draws it: `{fill} {title} {fill}` filling `width` columns (the right fill one longer when the rest is odd). */
export function pytestRule(title: string, char = "=", width = 80): string {
  const room = width - title.length - 2;
  const fill = Math.max(Math.floor(room / 2), 1);
  const extra = room > 0 && room % 2 === 1 ? char : "";
  return `${char.repeat(fill)} ${title} ${char.repeat(fill)}${extra}`;
}
