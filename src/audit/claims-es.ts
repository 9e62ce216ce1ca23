// Spanish claim forms: "todos los tests pasan", "247/247 tests pasando", "18/20 tests siguen fallando",
// "no se ejecutaron los tests". "Pasa" with an object ("pasa el token") has no test subject.
import type { ClaimLanguageTable } from "./claims-language.js";

/** Spanish. */
export const spanish: ClaimLanguageTable = {
  code: "es",
  name: "Spanish",
  dense: false,
  quick: "pas(?:a|ó|ad)|verde|correctos|exitos|aprob|fall(?:a|ó|id|os)|rojo|(?<![a-z])rotos?(?![a-z])|ejecut|corr(?:i|er|í)|lanz",
  test: "\\b(?:tests?|pruebas?|suite|specs?)\\b",
  standIn: "\\b(?:l[oa]s?\\s+de|l[oa]s\\s+(?:demás|otr[oa]s)|otr[oa]s)\\b",
  whole: "\\b(?:todos|todas|todo|completa|completo|entera|entero|suite)\\b",
  pass: "\\b(?:(?:ya|ahora|todavía|siguen|sigue)\\s+)*(?:pasan|pasa|pasando|pasaron|pasó|pasados|pasadas|aprobados?|aprobadas?|han\\s+pasado|ha\\s+pasado|(?:están|está)?\\s*en\\s+verde|correctos|exitos[oa]s)\\b",
  fail: "\\b(?:(?:siguen|sigue|todavía|aún|también)\\s+)*(?:fallan|falla|fallando|fallaron|falló|fallaban|fallaba|fallidos?|fallidas?|en\\s+rojo|rotos?)\\b",
  negatedPass: "\\bno\\s+(?:pasan|pasa|pasaron|pasó|han\\s+pasado)\\b|\\bningun[oa]?\\b|\\bningún\\b",
  noFailures:
    "\\bno\\s+hay\\s+(?:tests?|pruebas?)\\s+(?:fallando|fallidos?|fallidas?|en\\s+rojo)\\b|\\b(?:sin|cero|0)\\s+(?:fallos|tests\\s+fallidos)\\b",
  partial: "\\b(?:solo|sólo|solamente|únicamente|casi|mayoría|parte|algunos|algunas|mitad)\\b",
  notRun:
    "\\bno\\s+se\\s+(?:ejecutaron|corrieron|lanzaron|pudieron\\s+ejecutar)\\s+(?:los\\s+|las\\s+)?(?:tests?|pruebas?)\\b|\\bno\\s+(?:pude|pudimos|he\\s+podido|hemos\\s+podido|se\\s+pudo)\\s+(?:ejecutar|correr|lanzar)\\s+(?:(?:los|las|la|el|una?|ningun[oa]?|esa|esta)\\s+)?(?:(?:test|prueba)\\s+)?(?:tests?|pruebas?|suite)\\b|\\bno\\s+(?:ejecuté|corrí|lancé|he\\s+ejecutado|he\\s+corrido)\\s+(?:los\\s+|las\\s+)?(?:tests?|pruebas?)\\b|\\b(?:tests?|pruebas?)\\s+no\\s+(?:se\\s+)?(?:ejecutad[oa]s|ejecutaron|corrieron)\\b|\\bsin\\s+(?:ejecutar|correr)\\s+(?:los\\s+|las\\s+)?(?:tests?|pruebas?)\\b",
  past: "\\b(?:fallaban|fallaba|antes|anteriormente|previamente|originalmente)\\b",
  fixed: "\\b(?:corregí|corregido|corregidos|arreglé|arreglado|arreglados|solucionado|solucionados)\\b",
  hedge:
    "\\b(?:deberían|debería|deben|debe|podrían|podría|quizás?|tal\\s+vez|probablemente|creo\\s+que|parece|espero|si|cuando|hasta\\s+que|para\\s+que|asegúrate|asegurar|confirma|confirmar|verifica|verificar|comprobar|comprueba|criterio|objetivo|meta|se\\s+considera|intenta)\\b",
  elsewhere: "\\b(?:dice\\s+que|dicen\\s+que|según|afirma|reporta|informa|rama|en\\s+(?:main|master|develop|trunk))\\b",
  conditional: "\\bsi\\b",
  framing:
    "\\b(?:criterios?|objetivos?|metas?|se\\s+considera|esperado|resultado\\s+esperado|definición\\s+de\\s+(?:hecho|terminado)|pendientes?|todo|plan|próximos\\s+pasos|checklist|requisitos?|condiciones?)\\b",
  ratioWords: "de",
  counter: "(?!)",
  conjunctions: "pero|mientras|aunque|sin\\s+embargo",
  numbers: { un: 1, uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10 },
};
