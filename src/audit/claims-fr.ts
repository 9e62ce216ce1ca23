// French claim forms: "tous les tests passent", "les 27 tests passent au vert", "55 tests échouent encore",
// "je n'ai pas pu exécuter les tests". "Passer" with an object ("passer la facture à payé") has no test subject.
import type { ClaimLanguageTable } from "./claims-language.js";

/** French. */
export const french: ClaimLanguageTable = {
  code: "fr",
  name: "French",
  dense: false,
  quick: "passe(?![ds])|passé|réuss|(?<![a-z])verts?(?![a-z])|échou|échec|cass[ée]|plantent|rouge|exécut|(?<![a-z])lanc|tourn",
  test: "\\btests?\\b|\\bsuite(?:\\s+de\\s+tests)?\\b|\\btest-suite\\b",
  standIn: "\\b(?:ceux|celles?|celui|les\\s+autres|d'autres)\\b",
  whole: "\\b(?:tous|toutes|tout|ensemble|complète|complet|entière|entier|suite)\\b",
  pass: "\\b(?:(?:maintenant|toujours|bien|désormais|à\\s+nouveau)\\s+)*(?:passent|passe|sont\\s+passés|ont\\s+passé|ont\\s+réussi|réussissent|réussit|réussis|sont\\s+(?:au\\s+)?verts?|est\\s+(?:au\\s+)?vert|au\\s+vert)\\b",
  fail: "\\b(?:(?:encore|toujours|aussi)\\s+)*(?:échouent|échoue|échoués|échouées|échoué|échouaient|échouait|en\\s+échec|échecs?|cassés?|plantent|sont\\s+rouges?)\\b",
  negatedPass:
    "\\b(?:ne|n')\\s*(?:passent|passe|réussissent|réussit)\\b|\\b(?:passent|passe)\\s+pas\\b|\\baucun\\s+(?:des\\s+)?tests?\\s+ne\\b",
  noFailures:
    "\\baucun(?:e)?\\s+(?:test\\s+)?(?:en\\s+)?échecs?\\b|\\baucun\\s+test\\s+(?:ne\\s+échoue|n'échoue)\\b|\\bsans\\s+échecs?\\b|\\b(?:0|zéro)\\s+échecs?\\b",
  partial: "\\b(?:seul(?:s|e|es)?|seulement|uniquement|plupart|presque|certains|quelques|partie|moitié)\\b",
  notRun:
    "\\b(?:pas|jamais)\\s+(?:pu\\s+)?(?:exécuter|exécuté|lancer|lancé|relancer|relancé|faire\\s+tourner|fait\\s+tourner)\\s+(?:les\\s+|des\\s+|aucun\\s+)?(?:tests?|suite)\\b|\\btests?\\s+(?:n'ont|ne\\s+sont)\\s+pas\\s+été\\s+(?:exécutés|lancés)\\b|\\btests?\\s+non\\s+(?:exécutés|lancés)\\b|\\bsans\\s+(?:exécuter|lancer)\\s+les\\s+tests\\b",
  past: "\\b(?:échouait|échouaient|avait\\s+échoué|avaient\\s+échoué|ancien|ancienne|auparavant|précédemment|avant\\s+(?:la|le)\\s+(?:correction|correctif|fix))\\b",
  fixed: "\\b(?:corrigé|corrigés|corrigée|réparé|réparés|résolu|résolus)\\b",
  hedge:
    "\\b(?:devrai(?:en)?t|doivent|doit|pourrai(?:en)?t|peut-être|probablement|sans\\s+doute|je\\s+pense|je\\s+crois|il\\s+semble|semblent?|attendu|prévu|si|quand|lorsque|une\\s+fois\\s+que|afin\\s+que|pour\\s+que|jusqu'à|attendez|attendre|vérifier|vérifiez|assurez|assurer|il\\s+faut|faut|objectif|critère|remettre|espérons|j'espère)\\b",
  elsewhere:
    "\\b(?:dit\\s+que|disent\\s+que|affirme|indique\\s+que|rapporte|signale|selon|d'après|il\\s+paraît|branche|sur\\s+(?:main|master|dev|develop|trunk))\\b",
  conditional: "\\bsi\\b",
  framing:
    "\\b(?:critères?|objectifs?|attendu|résultat\\s+attendu|définition\\s+de\\s+(?:fini|terminé)|à\\s+faire|todo|plan|prochaines?\\s+étapes?|checklist|conditions?|exigences?)\\b",
  ratioWords: "sur|de",
  counter: "(?!)",
  conjunctions: "mais|tandis\\s+que|alors\\s+que|cependant",
  numbers: { un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9, dix: 10 },
};
