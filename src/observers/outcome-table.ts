// The table a parser keeps its ids in, by the form its caller asked for.
import { ByteIdTable } from "./byte-id-table.js";
import type { IdForm, IdList, OutcomeTable } from "./id-list.js";
import { IdTable } from "./id-table.js";

/** An empty {@link OutcomeTable}: strings (IdTable) unless `form` is `bytes` (ByteIdTable). */
export function createOutcomeTable(form: IdForm = "strings"): OutcomeTable<IdList> {
  return form === "bytes" ? new ByteIdTable() : new IdTable();
}
