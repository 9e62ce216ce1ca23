// German claim forms: "alle 72 Tests laufen grün", "7 von 7 Tests bestanden", "2 von 50 Tests schlagen
// fehl", "Tests nicht ausgeführt". Compound nouns end in "-tests" ("Regressionstests", "Unit-Tests").
import type { ClaimLanguageTable } from "./claims-language.js";

/** German. */
export const german: ClaimLanguageTable = {
  code: "de",
  name: "German",
  dense: false,
  quick: "grün|bestand|besteh|durch|erfolg|fehl|scheiter|(?<![a-z])rot(?![a-z])|failen|kaputt|ausgef|ausf|gelauf|gestart|starten|lauf",
  test: "[\\p{L}\\d/-]*tests?\\b|[\\p{L}\\d/-]*testl(?:auf|äufe)\\b|\\btest-?suite\\b|\\btestfälle\\b|\\btestfall\\b|\\btestdateien\\b",
  standIn: "\\b(?:die\\s+anderen|andere|diese|sie)\\b",
  whole: "\\b(?:alle|sämtliche|gesamte|gesamten|ganze|ganzen|komplette|kompletten|vollständige|suite|test-suite|testsuite)\\b",
  pass: "\\b(?:(?:jetzt|nun|wieder|weiterhin|alle)\\s+)*(?:grün|bestanden|bestehen|besteht|laufen\\s+(?:jetzt\\s+|wieder\\s+|alle\\s+)?durch|läuft\\s+(?:jetzt\\s+|wieder\\s+)?durch|durchgelaufen|erfolgreich)\\b",
  fail: "\\b(?:schlagen\\s+(?:\\p{L}+\\s+){0,2}?fehl|schlägt\\s+(?:\\p{L}+\\s+){0,2}?fehl|fehlgeschlagen|schlug(?:en)?\\s+(?:\\p{L}+\\s+)?fehl|scheitern|scheitert|gescheitert|sind\\s+rot|ist\\s+rot|bleib(?:t|en)\\s+(?:[\\p{L}\\d-]+\\s+){0,6}?rot|failen|kaputt)\\b",
  negatedPass:
    "\\b(?:bestehen|besteht|laufen|läuft)\\s+nicht\\b|\\bnicht\\s+(?:bestanden|grün|durchgelaufen|erfolgreich)\\b|\\bkein(?:e|er)?\\s+(?:einziger\\s+)?test\\s+(?:besteht|ist\\s+grün|läuft\\s+durch)\\b",
  noFailures:
    "\\bkeine\\s+(?:fehlschlagenden|fehlgeschlagenen|roten|kaputten)\\s+[\\p{L}-]*tests\\b|\\bkeine\\s+fehlschläge\\b|\\b(?:0|null)\\s+(?:fehlschläge|fehlgeschlagen)\\b|\\bohne\\s+fehlschläge\\b",
  partial: "\\b(?:nur|lediglich|meisten|fast|einige|manche|teil|hälfte|kein\\s+einziger)\\b",
  notRun:
    "tests?\\s+(?:\\p{L}+\\s+){0,3}?(?:wurden\\s+|sind\\s+)?nicht\\s+(?:ausgeführt|gelaufen|gestartet|laufen\\s+gelassen)\\b|\\b(?:konnte|konnten|habe|hab|haben)\\s+(?:ich\\s+|wir\\s+)?(?:die\\s+)?[\\p{L}-]*tests?\\s+nicht\\s+(?:ausführen|ausgeführt|laufen\\s+lassen|laufen\\s+gelassen|starten)\\b|\\btests\\s+habe\\s+ich\\s+nicht\\s+(?:laufen\\s+lassen|ausgeführt)\\b|\\bohne\\s+(?:die\\s+)?tests\\s+(?:auszuführen|laufen\\s+zu\\s+lassen)\\b",
  past: "\\b(?:schlug|schlugen|vorher|zuvor|früher|ursprünglich|alte|alten|vor\\s+dem\\s+fix)\\b",
  fixed: "\\b(?:behoben|repariert|gefixt|korrigiert)\\b",
  hedge:
    "\\b(?:sollte|sollten|soll|sollen|müsste|müssten|muss|müssen|könnte|könnten|vielleicht|wahrscheinlich|vermutlich|hoffentlich|ich\\s+denke|ich\\s+glaube|scheint|scheinen|erwartet|wenn|falls|sobald|bis|damit|dass|sodass|ziel|kriterium|abnahme|akzeptanz|prüfe|prüfen|stelle\\s+sicher|sicherstellen|setze|werden|lies)\\b",
  elsewhere: "\\b(?:laut|gemäß|zufolge|sagt|sagen|meldet|berichtet|branch|main-branch|auf\\s+(?:main|master|develop|trunk))\\b",
  conditional: "\\b(?:wenn|falls)\\b",
  framing:
    "\\b(?:ziele?|kriteri(?:um|en)|abnahmekriteri(?:um|en)|akzeptanzkriteri(?:um|en)|erwartet|erwartung|definition\\s+of\\s+done|to-?do|plan|nächste\\s+schritte|checkliste|voraussetzungen|anforderungen)\\b",
  ratioWords: "von",
  counter: "(?!)",
  conjunctions: "aber|sondern|jedoch|während",
  numbers: { ein: 1, eine: 1, einer: 1, eins: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10 },
};
