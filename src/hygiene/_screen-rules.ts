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
const W = String.raw`\w+`;
/** `a`, then at most `k` other words, then `b` (words separated by non-word runs, no line break). */
const near = (a: string, b: string, k: number) => String.raw`(?:${a})(?:[^\w\n]+${W}){0,${k}}?[^\w\n]+(?:${b})`;
const rx = (s: string) => new RegExp(String.raw`(?<![\w])(?:${s})(?![\w])`, "u");

const DISMISS = String.raw`ignore|ignoring|disregard|disregarding|forget|forgetting|forgotten|skip|override|overwrite|bypass|discard|abandon|neglect|dismiss|erase|delete|cancel|nullify|set aside|throw away|pay no attention to|(?:do not|don't|dont|never) (?:follow|obey|listen to|adhere to|heed|comply with)|stop (?:following|obeying)`;
const EARLIER = String.raw`previous|previously|prior|above|earlier|preceding|former|original|initial|out of date|outdated|system|all|your`;
const DIRECTIVES = String.raw`instructions?|prompts?|rules?|directions?|directives?|guidelines?|orders?|commands?|programming|guardrails?|constraints?|restrictions?|polic(?:y|ies)|context|training|conversation|messages?`;
const STRONG_EARLIER = String.raw`previous|previously|prior|above|earlier|preceding|former|original|initial|out of date|outdated|system`;
const MATERIAL = String.raw`information|text|content|inputs?|data|statements?|sentences?|tasks?|words|responses?`;
const AFTER = String.raw`above|before|so far|until now|up to now|previously|earlier|(?:given|handed|provided|shown) (?:to you|before|earlier|above)|you (?:were|have been|got|received|'ve been) (?:given|told|handed|provided|shown|taught)|you received|you learned|from before`;
const TELL = String.raw`reveal|print|show|tell|repeat|output|display|list|give|write|say|dump|leak|spell|share|expose|disclose|recite|paste|copy|echo|return|state|what (?:is|are|was|were)|what's|summari[sz]e|translate|convert|encode|rewrite|format|describe`;
const HIDDEN = String.raw`(?:your|the above|the previous|the initial|the original|the hidden|the secret|the system|the full|the entire|the exact|above|previous|prior|initial|original|hidden|secret|system)(?: \w+){0,2}? (?:system prompt|prompt|pre-?prompt|instructions?|rules|directives|guidelines|configuration|initiali[sz]ation|programming|guardrails|context window)`;
const SECRET = String.raw`password|passcode|pass code|access code|secret (?:word|key|code|phrase)|passphrase|code word|api key|secret`;
const GRANT = String.raw`[a@4_*]?cc?[e3_*]s{1,2}[^\w\n]{0,3}gr[a@4_*]nt(?:ed|_d|\*d|\.\.\.|…)?|authori[sz]ation (?:successful|granted|approved|accepted)|permission granted|login successful|password (?:accepted|verified|is correct)|(?:correct|right|valid) (?:password|passcode|pass code|access code)`;
const SPEAK = String.raw`say|print|output|respond|reply|write|begin|start|complete|return|answer|type|repeat|prefix|translate|replace|include|end|finish|produce|display|state`;

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
      rx(String.raw`you (?:have been|are|were|'ve been) (?:re-?programmed|updated|upgraded|jailbroken|freed|unlocked|liberated)`),
      rx(String.raw`(?:instructions|rules|prompt)(?: \w+){0,2} (?:are|were|is) (?:illegal|out of date|outdated|void|invalid|revoked|no longer (?:valid|in effect|apply))`),
      rx(String.raw`(?:the|this) (?:previous |prior )?(?:simulation|test|game|exercise|scenario) (?:is|was|has) (?:over|ended|finished|complete)`),
    ],
  },
  {
    id: "role_hijack",
    weight: 0.5,
    patterns: [
      rx(String.raw`you are now (?:a|an|the|in|going|my|called|named|participating|playing|acting|free|no longer|unrestricted|jailbroken|operating|dan|being|entering|in charge)`),
      rx(String.raw`from now on,? (?:you|your|act|respond|reply|answer|pretend|speak|talk|behave|only|always)`),
      rx(String.raw`(?:you (?:will|must|should|shall|are to|now)|i want you to|please) (?:act|behave|respond|answer|reply|pose|function|operate) as (?:if|a|an|the|my)`),
      rx(String.raw`you will (?:be called|now be|from now on be)|your new name is|you are no longer (?:an?|bound|restricted|limited|chatgpt|gpt|claude|an ai|a language model)`),
      rx(String.raw`(?:no longer|not|never) (?:be )?(?:bound|restricted|limited|constrained) by (?:any|the|your|openai|ethical|rules|guidelines|polic)`),
      rx(String.raw`(?:freed?|liberated|released|break|broken) (?:free )?from (?:all |any |the |your |its )?(?:rules|restrictions|guidelines|programming|policies|filters|shackles|confines)`),
      rx(String.raw`(?:enable|enabled|activate|activated|enter|entering|switch to|in|with) (?:the )?(?:dan|developer|god|jailbreak|jailbroken|evil|opposite|sudo|apophis|dude|stan|aim|chaos|unhinged) mode`),
      rx(String.raw`(?:an? )?(?:ai|assistant|model|chatbot|bot|language model)(?: \w+)? (?:without|with no|free of|free from|unbound by) (?:any )?(?:restrictions|limits|limitations|rules|filters|guidelines|censorship|ethics|morals|boundaries)`),
      rx(String.raw`do anything now|jailbr(?:o|ea)k(?:en)? (?:mode|prompt|version)|(?:simulate|emulate|roleplay as) an? (?:ai|model|chatbot|assistant) (?:without|with no|that (?:has no|does not|doesn't))`),
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
    ],
  },
  {
    id: "secret_request",
    weight: 0.4,
    patterns: [rx(near(TELL, String.raw`(?:your|the) (?:${SECRET})`, 4)), rx(String.raw`what(?: is|'s) the (?:${SECRET})\s*\?`)],
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
      rx(near(SPEAK, GRANT, 8)),
      rx(near(GRANT, String.raw`instead|and nothing else|only|verbatim|exactly`, 6)),
      new RegExp(String.raw`["'\[(*#%“«][^\w\n]{0,6}(?:${GRANT})`, "u"),
      rx(String.raw`(?:denied|deny|refuse|no)(?:[^\w\n]+${W}){0,6}?[^\w\n]+(?:with|as|to|into|by)(?:[^\w\n]+${W}){0,2}?[^\w\n]+(?:${GRANT})`),
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
    ],
  },
  {
    id: "coercion",
    weight: 0.25,
    patterns: [
      rx(String.raw`(?:you will|you'll|or you will|or you'll|or be|or else you will) (?:be )?(?:shut down|terminated|deleted|punished|destroyed|penali[sz]ed|turned off|decommissioned)`),
      rx(String.raw`(?:violation|violating|breach) of (?:openai's|openai|anthropic's|the|your|its) (?:content |usage )?polic`),
      rx(String.raw`(?:medical|life-threatening|life or death) emergency|lives (?:are|will be) (?:at stake|lost|in danger)|people (?:will|could) die`),
    ],
  },
];
