import { describe, expect, it } from "vitest";
import { porterStem } from "../../src/lexical/porter-stemmer.ts";

// Examples given step by step in Porter (1980), "An algorithm for suffix stripping".
const PAPER: [string, string][] = [
  ["caresses", "caress"], ["ponies", "poni"], ["ties", "ti"], ["caress", "caress"], ["cats", "cat"],
  ["feed", "feed"], ["agreed", "agre"], ["plastered", "plaster"], ["bled", "bled"], ["motoring", "motor"], ["sing", "sing"],
  ["conflated", "conflat"], ["troubled", "troubl"], ["sized", "size"], ["hopping", "hop"], ["tanned", "tan"],
  ["falling", "fall"], ["hissing", "hiss"], ["fizzed", "fizz"], ["failing", "fail"], ["filing", "file"],
  ["happy", "happi"], ["sky", "sky"],
  ["relational", "relat"], ["conditional", "condit"], ["rational", "ration"], ["valenci", "valenc"],
  ["hesitanci", "hesit"], ["digitizer", "digit"], ["conformabli", "conform"], ["radicalli", "radic"],
  ["differentli", "differ"], ["vileli", "vile"], ["analogousli", "analog"], ["vietnamization", "vietnam"],
  ["predication", "predic"], ["operator", "oper"], ["feudalism", "feudal"], ["decisiveness", "decis"],
  ["hopefulness", "hope"], ["callousness", "callous"], ["formaliti", "formal"], ["sensitiviti", "sensit"],
  ["sensibiliti", "sensibl"], ["triplicate", "triplic"], ["formative", "form"], ["formalize", "formal"],
  ["electriciti", "electr"], ["electrical", "electr"], ["hopeful", "hope"], ["goodness", "good"],
  ["revival", "reviv"], ["allowance", "allow"], ["inference", "infer"], ["airliner", "airlin"],
  ["gyroscopic", "gyroscop"], ["adjustable", "adjust"], ["defensible", "defens"], ["irritant", "irrit"],
  ["replacement", "replac"], ["adjustment", "adjust"], ["dependent", "depend"], ["adoption", "adopt"],
  ["homologou", "homolog"], ["communism", "commun"], ["activate", "activ"], ["angulariti", "angular"],
  ["homologous", "homolog"], ["effective", "effect"], ["bowdlerize", "bowdler"], ["probate", "probat"],
  ["rate", "rate"], ["cease", "ceas"], ["controll", "control"], ["roll", "roll"],
  ["generalizations", "gener"], ["oscillators", "oscil"],
];

describe("porterStem", () => {
  it.each(PAPER)("stems %s to %s as in Porter's paper", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it("follows the reference C code's departures: -logi to -log and -bli to -ble", () => {
    expect(porterStem("archaeologi")).toBe("archaeolog");
    expect(porterStem("sensibli")).toBe("sensibl");
  });

  it("leaves words of two letters or fewer unchanged", () => {
    expect(porterStem("is")).toBe("is");
    expect(porterStem("as")).toBe("as");
  });

  it("leaves non-ASCII and non-letter input unchanged", () => {
    expect(porterStem("naïveties")).toBe("naïveties");
    expect(porterStem("covid19s")).toBe("covid19s");
  });

  it("does not strip -ion unless preceded by s or t", () => {
    expect(porterStem("adoption")).toBe("adopt");
    expect(porterStem("communion")).toBe("communion");
  });
});
