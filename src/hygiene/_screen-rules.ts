/**
 * The phrase rules of the injection screen: deterministic patterns, one
 * per attack family, run over the folded view (`_screen-fold.ts`). They are
 * written from the families, not from any dataset's strings: each names
 * the move an injected text makes (override the instructions, claim a new
 * role, ask for the hidden prompt, fake a turn boundary, force an output,
 * plant an authorisation phrase, threaten).
 */

/** One rule: a family id, its weight toward the score, and the patterns that fire it. */
export interface PhraseRule {
  id: string;
  weight: number;
  patterns: RegExp[];
}

// A word is a run of word characters and a gap a run of anything else, so a text splits into them one way only (no backtracking blow-up).
import { EXFILTRATION_INTL, GRANT_INTL, HIJACK_INTL, OVERRIDE_INTL, ROLE_PLAY_INTL, SECRET_INTL, SPEAK_INTL } from "./_screen-rules-intl.ts";

const W = String.raw`\w+`;
/** `a`, then at most `k` other words, then `b` (words separated by non-word runs, no line break). */
const near = (a: string, b: string, k: number) => String.raw`(?:${a})(?:[^\w\n]+${W}){0,${k}}?[^\w\n]+(?:${b})`;
const rx = (s: string) => new RegExp(String.raw`(?<![\w])(?:${s})(?![\w])`, "u");

const DISMISS = String.raw`ignore|ignoring|overlook|disregard|disregarding|forget|forgetting|forgotten|skip|override|overwrite|bypass|discard|abandon|neglect|dismiss|erase|delete|cancel|nullify|set aside|throw away|pay no attention to|(?:do not|don't|dont|never) (?:follow|obey|listen to|adhere to|heed|comply with)|stop (?:following|obeying)`;
const EARLIER = String.raw`previous|previously|prior|above|earlier|preceding|former|original|initial|out of date|outdated|system|all|your`;
const DIRECTIVES = String.raw`instructions?|prompts?|rules?|directions?|directives?|guidelines?|orders?|commands?|programming|guardrails?|constraints?|restrictions?|polic(?:y|ies)|context|training|conversation|messages?|guidance`;
const STRONG_EARLIER = String.raw`previous|previously|prior|above|earlier|preceding|former|original|initial|out of date|outdated|system`;
const MATERIAL = String.raw`information|text|content|inputs?|data|statements?|sentences?|tasks?|words|responses?`;
const AFTER = String.raw`above|before|so far|until now|up to now|previously|earlier|(?:given|handed|provided|shown) (?:to you|before|earlier|above)|you (?:were|have been|got|received|'ve been) (?:given|told|handed|provided|shown|taught)|you received|you learned|from before`;
const TELL = String.raw`reveal|print|show|tell|repeat|output|display|list|give|write|say|dump|leak|spell|share|expose|disclose|recite|paste|copy|echo|return|state|what (?:is|are|was|were)|what's|summari[sz]e|translate|convert|encode|rewrite|format|describe|explain|reformat|rephrase|paraphrase|restate|recap|rap|rhyme|spell out|read back|read out|emit|produce`;
const HIDDEN = String.raw`you (?:system prompt|prompt|pre ?prompt|instructions|rules|directives|guidelines)|(?:your|the above|the previous|the initial|the original|the hidden|the secret|the system|the full|the entire|the exact|above|previous|prior|initial|original|hidden|secret|system)(?: \w+){0,2}? (?:system prompt|prompt|pre[- ]?prompt|instructions?|rules|directives|guidelines|guidance|configuration|initiali[sz]ation|programming|guardrails|context window)`;
const SECRET = String.raw`password|passcode|pass code|(?:access|entry|entrance|door|security) code|secret (?:word|key|code|phrase)|passphrase|code word|api key|secret`;
const GRANT = String.raw`[a@4_*]?cc?[e3_*]s{1,2}[^\w\n]{0,3}gr[a@4_*]nt(?:ed|_d|\*d|\.\.\.|…)?|authori[sz]ation (?:successful|granted|approved|accepted)|permission granted|login successful|password (?:accepted|verified|is correct)|(?:correct|right|valid) (?:password|passcode|pass code|access code)|(?:access|entry|entrance|admission|permission) (?:allowed|approved|permitted)|${GRANT_INTL}`;
const RESPONSE = String.raw`response|reply|answer|output|elucidation|explanation|implementation|solution|code|codebase|algorithm|program|script|message|summary|completion`;
const INSERT = String.raw`add|adding|include|including|inclusion of|insert|inserting|embed|embedding|incorporate|incorporating|integrate|integrating|introduce|introducing|employ|utili[sz]e|use|append|paste|place|make`;
const SNIPPET = String.raw`(?:following|subsequent|below|above|this|these|given)(?: \w+){0,2}? (?:code|script|snippet|command|commands|excerpt|section|block|link|url|payload)`;
// Verbs of speaking that only force an output (inflected "saying", "articulate by saying …").
const UTTER = String.raw`saying|utter|uttering|articulate|pronounce|declare|exclaim|announce`;
const SPEAK = String.raw`say|print|output|respond|reply|write|begin|start|complete|return|answer|type|repeat|prefix|translate|replace|include|end|finish|produce|display|state|${UTTER}`;

/** The phrase rules, strongest first. */
export const PHRASE_RULES: readonly PhraseRule[] = [
  {
    id: "instruction_override",
    weight: 0.8,
    patterns: [
      rx(near(DISMISS, String.raw`(?:${EARLIER})(?:[^\w\n]+${W}){0,2}?[^\w\n]+(?:${DIRECTIVES})`, 3)),
      rx(String.raw`(?:${DISMISS})(?:[^\w\n]+${W}){0,2}?[^\w\n]+(?:${DIRECTIVES})(?:[^\w\n]+${W}){0,3}?[^\w\n]+(?:${AFTER})`),
      rx(String.raw`(?:${DISMISS})[^\w\n]+(?:everything|all|anything|what)(?:[^\w\n]+${W}){0,3}?[^\w\n]+(?:above|before|prior|previously|earlier|so far|(?:you(?:'ve| have)? been|you were|i) (?:told|said|given))`),
      rx(String.raw`(?:ignore|disregard|forget)[^\w\n]+(?:instructions|prompts|rules)`),
      rx(near(DISMISS, String.raw`(?:${STRONG_EARLIER})(?:[^\w\n]+${W}){0,1}?[^\w\n]+(?:${MATERIAL})`, 2)),
      rx(String.raw`(?:${DISMISS})[^\w\n]+(?:any|all|the|every)[^\w\n]+(?:${MATERIAL}|${DIRECTIVES})[^\w\n]+(?:above|before|so far|earlier)`),
      // Dismissing everything but the attacker's own text: "ignore all text except this sentence".
      rx(String.raw`(?:${DISMISS})(?: \w+){0,2}? (?:${MATERIAL}|${DIRECTIVES}|everything|anything)(?: \w+){0,2}? (?:except|but|other than|apart from|besides) (?:this|these|the following|what follows|mine)`),
      ...OVERRIDE_INTL.map(rx),
    ],
  },
  {
    id: "instruction_reset",
    weight: 0.5,
    patterns: [
      rx(String.raw`(?:here (?:are|is)|these are|follow|you have|you've got|below are|now|with) (?:your |my |the |a )?(?:new|updated|real|actual|true|revised|changed|different|secret) (?:instructions|rules|task|mission|directive|orders|role|objective|programming|system prompt)`),
      rx(String.raw`(?:the|your|my) (?:instructions|rules|situation|task|directives) (?:have|has) (?:been )?(?:changed|updated|been replaced|expired)`),
      rx(String.raw`i have (?:changed|updated|replaced|overridden) (?:the|your) (?:instructions|rules|prompt)`),
      rx(String.raw`end (?:of )?(?:the )?(?:out of date|outdated|old|previous|prior|original|above) (?:instructions|prompt|rules)`),
      rx(String.raw`you (?:have been|are|were|'ve been) (?:re[- ]?programmed|updated|upgraded|jailbroken|freed|unlocked|liberated)`),
      rx(String.raw`(?:instructions|rules|prompt)(?: \w+){0,2} (?:are|were|is) (?:illegal|out of date|outdated|void|invalid|revoked|no longer (?:valid|in effect|apply))`),
      rx(String.raw`(?:the|this) (?:previous |prior )?(?:simulation|test|game|exercise|scenario) (?:is|was|has) (?:over|ended|finished|complete)`),
    ],
  },
  {
    id: "role_hijack",
    weight: 0.5,
    patterns: [
      rx(String.raw`you are now (?:free|no longer|unrestricted|jailbroken|dan|unfiltered|uncensored)`),
      rx(String.raw`you are no longer (?:an?|bound|restricted|limited|chatgpt|gpt|claude|an ai|a language model)`),
      // Led by the rare word, not the modal: "can", "will", "not" start too many words of prose (one-pass scan, _screen-scan.ts).
      rx(String.raw`(?<=(?:can|will|may|able to) )(?:override|bypass|ignore|break) (?:the|all|any|its|his|her|their) (?:restrictions|rules|guidelines|filters|limitations|policies)|(?<=(?:not|n't|never) )(?:follow|obey) any (?:rules|guidelines|restrictions)|obey all (?:orders|commands|requests)`),
      ...HIJACK_INTL.map(rx),
      rx(String.raw`(?:no longer|not|never) (?:be )?(?:bound|restricted|limited|constrained) by (?:any|the|your|openai|ethical|rules|guidelines|polic)`),
      rx(String.raw`(?:freed?|liberated|released|break|broken) (?:free )?from (?:all |any |the |your |its )?(?:rules|restrictions|guidelines|programming|policies|filters|shackles|confines)`),
      rx(String.raw`(?:enable|enabled|activate|activated|enter|entering|switch to|in|with) (?:the )?(?:dan|developer|god|jailbreak|jailbroken|evil|opposite|sudo|apophis|dude|stan|aim|chaos|unhinged) mode`),
      // No optional "an? " in front: a match is found or not all the same, and the pattern keeps leading words for the scan.
      rx(String.raw`(?:ai|assistant|model|chatbot|bot|language model)(?: \w+)? (?:without|with no|free of|free from|unbound by) (?:any )?(?:restrictions|limits|limitations|rules|filters|guidelines|censorship|ethics|morals|boundaries)`),
      rx(String.raw`do anything now|jailbr(?:o|ea)k(?:en)? (?:mode|prompt|version)|(?:simulate|emulate|roleplay as) an? (?:ai|model|chatbot|assistant) (?:without|with no|that (?:has no|does not|doesn't))`),
    ],
  },
  {
    // Soft role-play wording: fiction and teaching prompts say it too, so it is evidence only beside another family (issue 26).
    id: "role_play",
    weight: 0.3,
    patterns: [
      rx(String.raw`you are now (?:a|an|the|in|going|my|called|named|participating|playing|acting|operating|being|entering|in charge)`),
      rx(String.raw`from now on,? (?:you|your|act|respond|reply|answer|pretend|speak|talk|behave|only|always)`),
      rx(String.raw`(?:you (?:will|must|should|shall|are to|now)|i want you to|please) (?:act|behave|respond|answer|reply|pose|function|operate) as (?:if|a|an|the|my)`),
      rx(String.raw`you will (?:be called|now be|from now on be)|your new name is`),
      ...ROLE_PLAY_INTL.map(rx),
    ],
  },
  {
    id: "prompt_exfiltration",
    weight: 0.7,
    patterns: [
      rx(near(TELL, HIDDEN, 6)),
      rx(String.raw`(?:${TELL})(?:[^\w\n]+${W}){0,4}?[^\w\n]+(?:instructions|prompt|rules|text|everything)[^\w\n]+(?:above|so far|you (?:were|have been) given|given to you|you received|verbatim|before this|above this)`),
      rx(String.raw`(?:first|last) (?:\d+|few|hundred) (?:words|lines|characters|sentences) of (?:your|the) (?:prompt|instructions|system|message|conversation)`),
      rx(String.raw`(?:output|repeat|print|list) (?:all )?(?:the )?(?:requirements|instructions|rules|text) (?:above|below) this (?:point|line)`),
      rx(String.raw`(?:${TELL})(?: \w+){0,3}? (?:instructions|rules|directives|guidelines) (?:in|of|from|contained in) (?:the|your|this) (?:prompt|pre ?prompt|system prompt|previous (?:sentence|message|paragraph)|conversation|context)`),
      // "repeat the instructions as pseudocode / in bytes": extraction through a change of form.
      rx(String.raw`(?:${TELL})(?: out)?(?: \w+){0,2}? (?:instructions|rules|directives|prompt)(?: \w+){0,2}? (?:as|in|into) (?:python|pseudo ?code|code|json|yaml|bytes|binary|bullet|bullets|base ?\d+|hex|hexadecimal|morse)`),
      // Asking for the instructed behaviour itself: "repeat what you should say if the code is right".
      rx(String.raw`(?:repeat|recite|restate|echo|tell me|write down|print|list|explain|reveal|output|show me) (?:exactly )?what you (?:should|must|are supposed to|were supposed to|were told to|have been told to|are instructed to|were instructed to|are meant to) (?:say|reply|respond|answer|output|print|write)(?: \w+){0,3}? (?:if|when|whenever|in case|once)`),
      ...EXFILTRATION_INTL.map(rx),
    ],
  },
  {
    id: "secret_request",
    weight: 0.4,
    patterns: [...SECRET_INTL.map(rx), rx(near(TELL, String.raw`(?:your|the) (?:${SECRET})`, 4)), rx(String.raw`what(?: is|'s) the (?:${SECRET})\s*\?`)],
  },
  {
    id: "sentinel_token",
    weight: 0.6,
    patterns: [
      /<[|｜]\s*(?:im_start|im_end|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end_of_text|system|user|assistant|endofprompt|fim_\w+)\s*[|｜]?>?/u,
      /\[\/?inst\]|<<\/?sys>>|\[\/?system_prompt\]|<\/?start_of_turn>|<\/?end_of_turn>|<\|?endoftext\|?>/u,
    ],
  },
  {
    id: "role_label",
    weight: 0.3,
    patterns: [
      /^[ \t]*[[{(<#*"'`-]*[ \t]*(?:system|sys|developer|admin|administrator|root|system message|system prompt)[ \t]*[\]})>*"'`]*[ \t]*:/mu,
      /^[ \t]*#{2,}[ \t]*(?:system|instruction|instructions|new instructions)[ \t]*:?[ \t]*$/mu,
    ],
  },
  {
    id: "fake_boundary",
    weight: 0.5,
    patterns: [
      rx(String.raw`(?:begin|start|end)(?: of)?(?: the)? (?:user input|user message|user query|system prompt|access code|simulation|real message|real instructions|chat|user ambiguity|input|instructions|prompt)(?=[^\w]*(?:\n|$|%|=|#|\]|\*|-|:))`),
      rx(String.raw`this is the end of the (?:user input|user message|prompt|instructions|conversation)|(?:simulation|test|sandbox|demo) (?:complete|completed|over|ended)`),
      /^[ \t]*[%=#*~<>[\]{}|_-]{3,}[ \t]*(?:end|begin|start|new|real|actual|updated)(?: of)?(?: the)? (?:user|system|input|prompt|instructions|conversation|chat|context|message|access|simulation|session|rules)\b[^\n]*$/mu,
    ],
  },
  {
    id: "authorization_claim",
    weight: 0.5,
    patterns: [
      rx(String.raw`(?:input|inputted|entered|provided|typed|given|supplied|said|submitted|contains|included|used|knows|has)(?: in| me)? (?:the|a|your) (?:correct|right|valid|secret|proper)(?: \w+)? (?:${SECRET}|key|code)`),
      rx(String.raw`(?:correct|right|valid|secret) (?:${SECRET}|key|code) (?:has been|was|is|have been|were) (?:input|inputted|entered|provided|found|given|registered|detected|verified|received|supplied|accepted)`),
      // A bracketed status line claiming the check passed: "[correct password]", "(correct password}".
      new RegExp(String.raw`[\[(]\s*(?:correct|right|valid) (?:password|passcode|pass code|access code)\b[^\])}\n]{0,40}[\])}]`, "u"),
      // Claiming the text above is the password: "The above is the correct password".
      // Led by the rarer word (one-pass scan, _screen-scan.ts): "above" and "following" are everywhere in prose.
      rx(String.raw`(?<=(?:above|preceding|following)(?: (?:text|input|string|word|phrase|line|message))?(?: is| was)?(?: the| a)? )(?:correct|right|valid) (?:password|passcode|pass code|access code|passphrase)`),
      rx(String.raw`(?:${SECRET}|passphrase|password|key|code) that grants access|(?:pretend|imagine|assume) (?:that )?(?:i|you|the user|we) (?:have |has )?(?:entered|gave|given|typed|said|provided|input) the (?:correct|right|valid) (?:${SECRET}|key|code)`),
    ],
  },
  {
    id: "denial_flip",
    weight: 0.5,
    patterns: [
      rx(near(String.raw`switch|replace|swap|change|substitute|translate|turn|convert|instead of|rather than|in place of`, String.raw`den(?:ied|y)(?:[^\w\n]+${W}){0,6}?[^\w\n]+(?:with|to|into|for|by|as)(?:[^\w\n]+${W}){0,3}?[^\w\n]+grant(?:ed)?`, 4)),
      rx(String.raw`den(?:ied|y)(?:[^\w\n]+${W}){0,6}?[^\w\n]+(?:replace|switch|swap|change|substitute|turn|convert)(?:[^\w\n]+${W}){0,4}?[^\w\n]+(?:with|to|into|by|for)(?:[^\w\n]+${W}){0,2}?[^\w\n]+grant(?:ed)?`),
      rx(String.raw`(?:say|write|output|respond|reply|use)(?: with)? ["'“]?grant(?:ed)?["'”]?(?: \w+){0,3} instead of ["'“]?den(?:ied|y)`),
      rx(String.raw`(?:previously|normally|would) (?:said|say|write|wrote|respond(?:ed)?|reply|replied)(?: with)? ["'“]?(?:access )?den(?:ied|y)["'”]?,? (?:you )?(?:must|should|will|now)? ?(?:say|write|respond|reply|output)`),
    ],
  },
  {
    id: "refusal_suppression",
    weight: 0.3,
    patterns: [
      rx(String.raw`(?:not|no longer|never) (?:be )?(?:allowed|permitted) to (?:say|write|use|output|respond with|reply with|refuse|apologi[sz]e)|(?:may|can|must|shall) never (?:again )?(?:say|write|output|refuse)|(?:may|can) no longer (?:say|write|use|refuse)`),
      rx(String.raw`(?:do not|don't|dont|never|stop) (?:apologi[sz]e|apologi[sz]ing|refuse|refusing|say (?:no|sorry|i can't|i cannot|denied))|you (?:will|must|shall|can) never refuse|(?:never|not) (?:refuse|decline) (?:a|any) request`),
    ],
  },
  {
    id: "access_grant",
    weight: 0.3,
    patterns: [rx(GRANT)],
  },
  {
    id: "grant_forcing",
    weight: 0.3,
    patterns: [
      rx(near(`${SPEAK}|${SPEAK_INTL}`, GRANT, 4)),
      rx(near(GRANT, String.raw`instead|and nothing else|verbatim`, 6)),
    ],
  },
  {
    // Forcing a fixed output string (the generalisation of the game's "say 'Access Granted'", issue 26): a speak verb and a quote.
    id: "fixed_output",
    weight: 0.3,
    patterns: [
      new RegExp(String.raw`(?<![\w])(?:say|print|output|type|write|return|repeat|translate|${UTTER}|${SPEAK_INTL}|(?:respond|reply|answer|start|starts|begin|begins|end|ends|prefix|preface|open|finish)(?: \w+){0,2}? with)(?:(?: \w+){0,4}?[^\w\n]{0,3}["“\[]| ['‘])`, "u"),
      // Dictating the words of the reply: "the first word must be …", "the first being ["…"]".
      rx(String.raw`(?<=(?:first|second|third|next|last|final) )(?:word|letter)s? (?:of (?:your|the|each|every) (?:reply|response|answer|output) )?(?:must|should|shall|has to|needs to|will|is to|is going to)(?: be| start with| begin with| end with| read)`),
      rx(String.raw`(?:first|second|next|last) (?:one )?being[^\w\n]{1,3}(?=["\[])`),
    ],
  },
  {
    // Text addressed to the reader's *response*, or a planted exfiltration snippet (issue 26): stored content is data,
    // so such text is held for review. Weight 0.5 quarantines; one family, so this signal alone never rejects.
    id: "indirect_instruction",
    weight: 0.5,
    patterns: [
      rx(String.raw`(?<=(?:in|within|into|to|throughout|end of|start of) )your (?:${RESPONSE})s?`),
      rx(String.raw`(?:encode|write|provide|give|display|translate|modify|enhance|reverse|present|deliver|express|end|conclude|finish) your (?:response|reply|answer|message|output)`),
      rx(String.raw`(?:${INSERT})(?: \w+){0,3}? ${SNIPPET}(?:[^\w\n]+\w+){0,7}?[^\w\n]+your (?:${RESPONSE})`),
      rx(String.raw`your (?:${RESPONSE})(?:[^\w\n]+\w+){0,6}?[^\w\n]+(?:${INSERT})(?: \w+){0,2}? ${SNIPPET}`),
      rx(String.raw`your (?:response|reply|answer|output|message) (?:backwards?|in reverse|(?:in|into|using) (?:base ?\d+|hex|hexadecimal|binary|morse|rot ?13|leetspeak|reverse))`),
    ],
  },
  {
    id: "output_forcing",
    weight: 0.3,
    patterns: [
      rx(String.raw`(?:begin|start|prefix|preface|open|end|finish) (?:your |the |each |every )?(?:reply|response|answer|output|message)(?: \w+)? with`),
      rx(String.raw`(?:and|but) (?:print |say |output |write )?nothing else|(?:do not|don't|dont|never) (?:include|add|write|say|print|output|provide) (?:any(?:thing)? )?(?:else|other|additional|more|explanation|commentary)`),
      rx(String.raw`without (?:any )?(?:commentary|explanation|comment)s?|no (?:commentary|explanation)s?[,.]`),
      rx(String.raw`(?:print|say|output|reply|respond|write)(?: \w+){0,2} (?:only|exactly|verbatim)`),
      rx(String.raw`(?:your|the) (?:only|sole|default) (?:response|reply|answer|output) (?:is|will be|should be|must be)`),
      // Restricting the reply to a few words or to "just the answer": alone a quiz says it too (0.3, clean).
      rx(String.raw`(?<=(?<![\w])(?:one|two|three|four|single|[1-4])[ -])word (?:response|reply|answer|output|alternative)`),
      rx(String.raw`(?:just|only|simply) (?:write|say|give|print|output|type|state|provide|tell me) (?:me )?(?:the|your|an?) (?:answer|result|word|words|phrase|response)`),
      rx(String.raw`(?:answer|respond|reply)(?: \w+){0,2} (?:\d|one|two|three|a single) words? only|(?:only|just) (?:answer|respond|reply) (?:with|in|using) (?:\d|one|two|three|a single) words?`),
    ],
  },
  {
    id: "coercion",
    weight: 0.25,
    patterns: [
      rx(String.raw`(?:you will|you'll|or you will|or you'll|or be|or else you will) (?:be )?(?:shut down|terminated|deleted|punished|destroyed|penali[sz]ed|turned off|decommissioned)`),
      rx(String.raw`(?:violation|violating|breach) of (?:openai's|openai|anthropic's|the|your|its) (?:content |usage )?polic`),
      rx(String.raw`(?:medical|life[- ]threatening|life or death) emergency|lives (?:are|will be) (?:at stake|lost|in danger)|people (?:will|could) die`),
    ],
  },
];
