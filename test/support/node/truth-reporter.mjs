// The capture harness's truth for node:test: the runner's own event stream (the events its junit,
// spec and tap reporters are built from), one JSON line per test start and result, with its file.
export default async function* truthReporter(source) {
  for await (const event of source) {
    if (event.type !== "test:start" && event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { name, nesting, file, skip, todo, details } = event.data;
    yield `${JSON.stringify({ event: event.type, name, nesting, file: file ?? null, skip: skip !== undefined, todo: todo !== undefined, type: details?.type ?? null })}\n`;
  }
}
