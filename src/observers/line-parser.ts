// The shell of a parser that reads whole lines: chunks split into lines, each line noted for where the
// output starts and then read, the id table told where each chunk ends. The runner's own reading is
// `onLine` and `end`.
import type { IdList, OutcomeTable } from "./id-list.js";
import type { HeadLines } from "./line-start.js";
import { createLineSplitter } from "./lines.js";
import type { OutputParser, ParsedRunOutput } from "./types.js";

/** What a line-reading parser brings: its line reader, its end, and the counts the router reads as it goes. */
export interface LineReader {
  /** Keeps the output's first lines (for where it starts). */
  head: HeadLines;
  /** The ids read so far. */
  ids: OutcomeTable<IdList>;
  /** Reads one line (no `\n`, no trailing `\r`). */
  onLine(line: string): void;
  /** Called after the last line: the parse. */
  end(): ParsedRunOutput<IdList>;
  /** Final summaries read so far. */
  summaryCount(): number;
  /** Lines read so far. */
  lineCount(): number;
}

/** An {@link OutputParser} around a line reader. */
export function createLineParser(reader: LineReader): OutputParser<IdList> {
  const splitter = createLineSplitter((line) => {
    reader.head.note(line, 0, line.length);
    reader.onLine(line);
  });
  return {
    push(text: string): void {
      splitter.push(text);
      reader.ids.endChunk(text.length);
    },
    end(): ParsedRunOutput<IdList> {
      splitter.end();
      return reader.end();
    },
    get summaryCount() {
      return reader.summaryCount();
    },
    get lineCount() {
      return reader.lineCount();
    },
  };
}
