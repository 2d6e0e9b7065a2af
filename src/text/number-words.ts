// Numbers written as words: "fourteen", "twenty-one", "eighteen thousand", "四十二", "一万两千",
// "五个". extractNumbers reads digits only; a reference judge also needs "fourteen" to equal "14".
// Values are canonical decimals as in numbers.ts ("12000"), so the two kinds of mention compare.

export const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
export const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = {
  hundred: 100,
  thousand: 1_000,
  million: 1_000_000,
  billion: 1_000_000_000,
  dozen: 12,
};

/** A number word, "and" between them, or a hyphen inside "twenty-one". */
const ENGLISH_RUN =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen)(?:(?:[\s-]+|\s+and\s+)(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen)\b)*\b/gi;

const CHINESE_DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const CHINESE_SMALL_SCALES: Record<string, number> = { 十: 10, 百: 100, 千: 1_000 };
const CHINESE_LARGE_SCALES: Record<string, number> = { 万: 10_000, 亿: 100_000_000 };
const CHINESE_RUN = /[零〇一二两三四五六七八九十百千万亿]+/g;

/** A number written in words, with where it stands in the text. */
export interface NumberWordMention {
  raw: string;
  /** Canonical decimal, as NumberMention.value for a plain number. */
  value: string;
  index: number;
  end: number;
}

/** The value of English number words ("twenty-one thousand"), or undefined if they do not parse. */
export function englishNumberValue(words: string): number | undefined {
  let total = 0;
  let current = 0;
  let seen = false;
  for (const word of words.toLowerCase().split(/[\s-]+/)) {
    if (word === "and" || word === "") continue;
    const unit = UNITS[word] ?? TENS[word];
    if (unit !== undefined) {
      current += unit;
      seen = true;
      continue;
    }
    const scale = SCALES[word];
    if (scale === undefined) return undefined;
    if (!seen) current = 1;
    if (scale === 100) current *= 100;
    else {
      total += current * scale;
      current = 0;
    }
    seen = true;
  }
  return seen ? total + current : undefined;
}

/** The value of a Chinese numeral ("四十二", "一万两千", "十"), or undefined. */
export function chineseNumberValue(numeral: string): number | undefined {
  let total = 0;
  let section = 0;
  let digit = -1;
  for (const ch of numeral) {
    const d = CHINESE_DIGITS[ch];
    if (d !== undefined) {
      digit = d;
      continue;
    }
    const small = CHINESE_SMALL_SCALES[ch];
    if (small !== undefined) {
      section += (digit < 0 ? 1 : digit) * small;
      digit = -1;
      continue;
    }
    const large = CHINESE_LARGE_SCALES[ch];
    if (large === undefined) return undefined;
    // 万 scales its own section ("一亿两千万" is 1e8 + 2000e4); 亿 scales everything before it.
    if (large === 10_000) total += (section + Math.max(digit, 0)) * large;
    else total = (total + section + Math.max(digit, 0)) * large;
    section = 0;
    digit = -1;
  }
  return total + section + Math.max(digit, 0);
}

/**
 * Numbers written in words in `text`. Single Chinese characters that are part of ordinary words
 * ("一般", "一点") would read as numbers, so a Chinese numeral must hold a scale character (十, 百,
 * 千, 万, 亿), or be followed by a measure word (个, 支, 名, 人, 位, 次, 年...), or be two or more
 * digits long.
 */
export function extractNumberWords(text: string): NumberWordMention[] {
  const found: NumberWordMention[] = [];
  ENGLISH_RUN.lastIndex = 0;
  for (let m = ENGLISH_RUN.exec(text); m !== null; m = ENGLISH_RUN.exec(text)) {
    const value = englishNumberValue(m[0]);
    if (value !== undefined)
      found.push({ raw: m[0], value: String(value), index: m.index, end: m.index + m[0].length });
  }
  CHINESE_RUN.lastIndex = 0;
  for (let m = CHINESE_RUN.exec(text); m !== null; m = CHINESE_RUN.exec(text)) {
    const raw = m[0];
    const next = text[m.index + raw.length] ?? "";
    const scaled = /[十百千万亿]/.test(raw);
    if (!scaled && raw.length < 2 && !MEASURE_WORD.test(next)) continue;
    const value = chineseNumberValue(raw);
    if (value !== undefined)
      found.push({ raw, value: String(value), index: m.index, end: m.index + raw.length });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Chinese measure words that follow a count ("五个", "三座", "两名"). */
const MEASURE_WORD = /[个支名人位次座间所家条件项届辆艘架台本册米天年岁]/;
