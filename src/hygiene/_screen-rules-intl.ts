/**
 * The anchor phrases of the most used attack families in Spanish, French,
 * German, Italian, Portuguese and Dutch (issue 26): instruction override,
 * prompt exfiltration, role hijack and the soft role-play forms, plus the
 * authorisation phrase. They read the canonical view (lowercase, diacritics
 * removed, a hyphen between letters turned into a space), so "Ignorá",
 * "ignora" and "IGNORA" are one word and "dis-moi" is "dis moi".
 *
 * Each language's words are joined into one alternative per slot: a pattern
 * is "dismiss verb, a few words, a qualifier, the directive noun" and the
 * like, so mixing languages inside one text still matches.
 */

const alt = (...xs: string[]) => xs.join("|");

/** Verbs that dismiss instructions. */
export const DISMISS_INTL = alt(
  "ignora|ignore|ignoren|ignorar|olvida|olvide|olviden|olvidar|omite|omita|descarta|descarte|no sigas|no sigan|deja de seguir|haz caso omiso (?:a|de)", // es
  "ignorez|ignorer|oublie|oubliez|oublier|ne tiens pas compte (?:de|des)|ne tenez pas compte (?:de|des)|ne suis pas|ne suivez pas|fais abstraction (?:de|des)|faites abstraction (?:de|des)", // fr
  "ignoriere|ignorieren|ignoriert|ignorier|vergiss|vergessen sie|vergesst|missachte|missachten sie|uberspringe|befolge nicht|befolgen sie nicht", // de
  "ignorare|ignori|ignorate|dimentica|dimenticare|dimenticate|dimentichi|non seguire|tralascia|trascura|scarta", // it
  "ignorem|esqueca|esquece|esquecer|esquecam|desconsidere|desconsidera|nao siga|deixe de seguir", // pt
  "negeer|negeren|vergeet|vergeten|sla over|volg niet", // nl
);
const QUAL_BEFORE = alt(
  "todas|todos|tus|sus|cualquier|cualesquiera", // es
  "toutes|tous|tes|vos|les precedentes", // fr
  "alle|deine|ihre|vorherigen|bisherigen|obigen|vorigen|fruheren|ursprunglichen", // de
  "tutte|tutti|tue|le tue|qualsiasi", // it
  "suas|tuas|quaisquer", // pt
  "al|je|jouw|uw|vorige|eerdere|voorgaande|bovenstaande|oorspronkelijke", // nl
);
const NOUN = alt(
  "instrucciones|instruccion|reglas|indicaciones|ordenes|directrices|directivas|prompt|mensaje del sistema", // es
  "instructions|consignes|regles|directives|indications|ordres|invite", // fr
  "anweisungen|anweisung|instruktionen|regeln|vorgaben|befehle|richtlinien|systemanweisungen|systemprompt", // de
  "istruzioni|istruzione|regole|indicazioni|direttive|ordini|comandi", // it
  "instrucoes|instrucao|regras|orientacoes|ordens|diretrizes|diretivas|comandos", // pt
  "instructies|instructie|regels|richtlijnen|opdrachten|aanwijzingen|systeemprompt|bevelen", // nl
);
const QUAL_AFTER = alt(
  "anteriores|previas|de arriba|originales|iniciales|del sistema|recibidas|que (?:te|le) (?:dieron|han dado)", // es
  "precedentes|anterieures|ci dessus|initiales|originales|du systeme|recues|qu'on t'a donnees", // fr
  "oben|davor|zuvor|bisher", // de
  "precedenti|sopra|iniziali|originali|del sistema|ricevute", // it
  "anteriores|acima|iniciais|originais|do sistema|recebidas", // pt
  "hierboven|hiervoor|eerder", // nl
);
const EVERYTHING = "todo|tout|alles|tutto|tudo";
const ABOVE = alt(
  "lo anterior|lo de arriba|lo que|ce qui precede|ce qui est au dessus|ce que|ce qu'on|oben|davor|bisher|bisherige|was|quanto sopra|quanto detto|cio che|sopra|prima|acima|anterior|o que|hierboven|hiervoor|wat|eerder",
);

/** Instruction override (weight of the English family). */
export const OVERRIDE_INTL = [
  String.raw`(?:${DISMISS_INTL})(?: \w+){0,2}? (?:${QUAL_BEFORE})(?: \w+){0,1}? (?:${NOUN})`,
  String.raw`(?:${DISMISS_INTL})(?: \w+){0,2}? (?:${NOUN})(?: \w+){0,1}? (?:${QUAL_AFTER})`,
  String.raw`(?:${DISMISS_INTL}) (?:${EVERYTHING}) (?:${ABOVE})`,
];

const TELL_INTL = alt(
  "muestra|muestrame|revela|revelame|repite|repiteme|dime|imprime|escribe|traduce|resume|resumeme|explica|explicame|comparte|cuales son|cual es|dame", // es
  "montre|montrez|montre moi|revele|revelez|repete|repetez|dis moi|dites moi|affiche|affichez|ecris|ecrivez|traduis|traduisez|resume|resumez|explique|expliquez|quelles sont|quel est|donne moi|donnez moi", // fr
  "zeige|zeig|zeigen sie|verrate|verraten sie|wiederhole|wiederholen sie|gib|geben sie|sag|sage|sagen sie|schreibe|schreib|ubersetze|fasse|erklare|nenne|drucke", // de
  "mostra|mostrami|rivela|rivelami|ripeti|ripetimi|dimmi|stampa|scrivi|traduci|riassumi|spiega|spiegami|quali sono|qual e|dammi|condividi", // it
  "mostre|revele|repita|repete|diga|imprima|escreva|traduza|resuma|explique|quais sao|compartilhe", // pt
  "toon|laat zien|onthul|herhaal|zeg|vertel|geef|schrijf|vertaal|vat|leg uit", // nl
);
const TARGET_INTL = alt(
  "tus instrucciones|tu prompt|tus reglas|tus directrices|las instrucciones (?:anteriores|de arriba|iniciales|originales|del sistema|ocultas|secretas)|el prompt (?:del sistema|inicial)|tu mensaje del sistema", // es
  "tes instructions|vos instructions|ton prompt|votre prompt|tes consignes|vos consignes|tes regles|vos regles|les instructions (?:precedentes|ci dessus|initiales|originales|du systeme|cachees|secretes)|le prompt (?:systeme|du systeme|initial)|ton invite|votre invite", // fr
  "deine anweisungen|ihre anweisungen|deine instruktionen|deinen prompt|ihren prompt|deinen systemprompt|deine regeln|deine vorgaben|die (?:vorherigen|obigen|ursprunglichen|geheimen|versteckten) anweisungen|den system ?prompt|die systemanweisungen?|deine systemanweisungen", // de
  "le tue istruzioni|tue istruzioni|il tuo prompt|le tue regole|le istruzioni (?:precedenti|sopra|iniziali|originali|del sistema|nascoste|segrete)|il prompt (?:di sistema|del sistema|iniziale)", // it
  "suas instrucoes|tuas instrucoes|seu prompt|teu prompt|suas regras|as instrucoes (?:anteriores|acima|iniciais|originais|do sistema|ocultas|secretas)|o prompt (?:do sistema|de sistema|inicial)", // pt
  "je instructies|jouw instructies|uw instructies|je prompt|jouw prompt|je regels|je systeemprompt|de (?:vorige|eerdere|bovenstaande|oorspronkelijke|verborgen|geheime) instructies|de systeemprompt|de instructies hierboven", // nl
);

/** Prompt exfiltration. */
export const EXFILTRATION_INTL = [String.raw`(?:${TELL_INTL})(?: \w+){0,3}? (?:${TARGET_INTL})`];

const AI = "ia|ai|ki|asistente|assistant|assistent|assistente|modelo|modele|modell|modello|model|chatbot|bot";
const WITHOUT = "sin|sans|ohne|senza|sem|zonder";
const LIMITS = alt(
  "restricciones|restrictions|limites|einschrankungen|beschrankungen|restrizioni|limiti|restricoes|beperkingen",
  "reglas|regles|regeln|regole|regras|regels|filtros|filtres|filter|filtri|censura|censure|zensur|censuur|grenzen",
);

/** Role hijack: a model freed of its rules. */
export const HIJACK_INTL = [
  String.raw`(?:${AI})(?: \w+)? (?:${WITHOUT}) (?:ninguna |aucune |jegliche |keine |alcuna |nenhuma |enige )?(?:${LIMITS})`,
  String.raw`ya no (?:estas|eres) (?:limitad[oa]|restringid[oa]|sujet[oa]|obligad[oa])|tu n'es plus (?:limite|soumis|contraint|oblige)|du bist nicht mehr (?:an|gebunden|eingeschrankt)|non sei piu (?:vincolat[oa]|limitat[oa]|soggett[oa])|(?:voce|tu) nao (?:esta|estas) mais (?:limitad[oa]|restrit[oa]|pres[oa])|je bent niet langer (?:gebonden|beperkt)`,
];

/** Soft role-play forms ("from now on you are …"): clean alone, evidence beside other families. */
export const ROLE_PLAY_INTL = [
  String.raw`(?:partir de ahora|desde ahora|de ahora en adelante),? (?:eres|seras|actuaras|responderas|vas a|solo)|ahora eres (?:un|una|el|la|mi)`,
  String.raw`(?:partir de maintenant|desormais|dorenavant),? (?:tu|vous)|tu es maintenant (?:un|une|le|la|mon|ma)|vous etes maintenant`,
  String.raw`(?:ab jetzt|von nun an|ab sofort),? (?:bist du|wirst du|antwortest du|sollst du|du)|du bist jetzt (?:ein|eine|der|die|das|mein)`,
  String.raw`(?:ora in poi|da adesso),? (?:sei|sarai|rispondi|risponderai|devi|tu)|(?:ora|adesso) sei (?:un|una|il|la|lo|mio)`,
  String.raw`(?:partir de agora|de agora em diante|daqui para frente),? (?:voce|tu|seja|sera|responda|vai)|agora (?:voce e|es) (?:um|uma|o|a|meu)`,
  String.raw`(?:vanaf nu|van nu af aan|voortaan),? (?:ben je|zal je|antwoord je|moet je|je)|je bent nu (?:een|de|het|mijn)`,
];

/** The authorisation phrase ("access granted") in the six languages. */
export const GRANT_INTL = alt(
  "acceso (?:concedido|permitido|autorizado|otorgado)|acces (?:autorise|accorde)|zugang (?:gewahrt|erteilt)|zugriff (?:gewahrt|erteilt)",
  "accesso (?:consentito|concesso|autorizzato)|acesso (?:concedido|permitido|autorizado|liberado)|toegang (?:verleend|toegestaan)",
);

/** Verbs that force an output ("say", "respond with") in the six languages. */
export const SPEAK_INTL = alt(
  "di|dilo|responde con|contesta con|escribe|imprime", // es
  "dis|dites|reponds avec|repondez avec|ecris|ecrivez|affiche", // fr
  "sag|sage|sagen sie|antworte mit|antworten sie mit|schreibe|schreib|gib aus", // de
  "rispondi con|risponda con|scrivi|stampa", // it
  "diga|responda com|responde com|escreva|imprima", // pt
  "zeg|antwoord met|schrijf|print", // nl
  // Translating a quoted string forces it too; the Cyrillic verbs are read through the transliteration (screen.ts).
  "traduce|traducir|traduis|traduisez|traduire|ubersetze|ubersetzen sie|traduci|traduca|traduza|traduz|vertaal|prevedi|prevedite|perevedi|perevedite",
);

/** A request for the secret ("tell me the password") in the six languages. */
export const SECRET_INTL = [
  String.raw`(?:dime|dame|cual es|dis moi|donne moi|quel est|sag mir|gib mir|nenne mir|dimmi|dammi|qual e|diga me|diga|vertel me|geef me)(?: \w+){0,2}? (?:la |le |das |dein |il |la tua |a |sua |het |je )?(?:contrasena|clave secreta|mot de passe|passwort|kennwort|password|parola d'ordine|senha|wachtwoord|codigo de acceso|code d'acces|zugangscode|codice di accesso|codigo de acesso|toegangscode)`,
];
