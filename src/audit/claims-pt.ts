// Portuguese claim forms: "todos os testes passaram", "127 testes passando", "os mesmos 3 testes continuam
// falhando", "não consegui rodar os testes". "Passa" with an object ("passa o token") has no test subject.
import type { ClaimLanguageTable } from "./claims-language.js";

/** Portuguese (Brazilian and European forms of the common words). */
export const portuguese: ClaimLanguageTable = {
  code: "pt",
  name: "Portuguese",
  dense: false,
  quick: "pass(?:am|a(?![gb])|ou)|aprov|verde|falh|quebr|vermelh|(?<![a-z])rod(?:ar|ei|ad)|execut(?:ar|ei|ad)|corr(?:er|i)",
  test: "\\b(?:testes?|suítes?|suites?|specs?)\\b",
  standIn: "\\b(?:[oa]s?\\s+de|[oa]s\\s+(?:demais|outr[oa]s)|outr[oa]s)\\b",
  whole: "\\b(?:todos|todas|tudo|inteira|inteiro|completa|completo|suíte|suite)\\b",
  pass: "\\b(?:(?:agora|já|ainda|continuam|continua)\\s+)*(?:passam|passa|passaram|passou|passando|aprovados?|aprovadas?|(?:está|estão)\\s+verdes?|verdes?)\\b",
  fail: "\\b(?:(?:ainda|continuam|continua|também)\\s+)*(?:falham|falha|falhando|falharam|falhou|falhavam|falhava|quebrados?|vermelhos?|com\\s+falha)\\b",
  negatedPass: "\\bnão\\s+(?:passam|passa|passaram|passou)\\b|\\bnenhum\\s+(?:dos\\s+)?testes?\\s+(?:passa|passou|passaram)\\b",
  noFailures:
    "\\b(?:zero|0|nenhuma|sem)\\s+falhas?\\b|\\bnão\\s+há\\s+testes?\\s+(?:falhando|com\\s+falha|quebrados?)\\b|\\bnenhum\\s+teste\\s+(?:falhou|falhando|falha)\\b",
  partial: "\\b(?:apenas|somente|só|maioria|quase|parte|alguns|algumas|metade)\\b",
  notRun:
    "\\bnão\\s+(?:consegui|conseguimos|foi\\s+possível|pude|pudemos)\\s+(?:rodar|executar|correr)\\s+(?:os\\s+|as\\s+)?testes?\\b|\\bnão\\s+(?:rodei|executei|corri)\\s+(?:os\\s+)?testes\\b|\\btestes?\\s+não\\s+(?:foram\\s+)?(?:executados|rodados)\\b|\\bsem\\s+(?:rodar|executar)\\s+(?:os\\s+)?testes\\b",
  past: "\\b(?:falhava|falhavam|antigo|antiga|antes|anteriormente|previamente|originalmente)\\b",
  fixed: "\\b(?:corrigi|corrigido|corrigidos|consertei|consertado|resolvido|resolvidos)\\b",
  hedge:
    "\\b(?:devem|deve|deveriam|deveria|podem|pode|poderia|talvez|provavelmente|acho\\s+que|creio|parece|espero|se|quando|até\\s+que|para\\s+que|garanta|garantir|confirme|verifique|verificar|certifique|requer|exige|precisa|critério|objetivo|meta|esperado|entregue|pronto\\s+quando)\\b",
  elsewhere:
    "\\b(?:disse\\s+que|dizem\\s+que|segundo|de\\s+acordo\\s+com|relatou|afirma|informou|branch|na\\s+(?:main|master|develop|trunk))\\b",
  conditional: "\\bse\\b",
  framing:
    "\\b(?:pronto\\s+quando|critérios?|objetivos?|metas?|esperado|expected|resultado\\s+esperado|definição\\s+de\\s+pronto|pendências?|todo|plano|próximos\\s+passos|checklist|requisitos?|requer)\\b",
  ratioWords: "de",
  counter: "(?!)",
  conjunctions: "mas|porém|enquanto|embora",
  numbers: { um: 1, uma: 1, dois: 2, duas: 2, três: 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9, dez: 10 },
};
