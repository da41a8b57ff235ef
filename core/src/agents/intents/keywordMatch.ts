import { containsPhrase, contentCoverage, stemText, type StemmedText } from '../context/wordStems.js';

/**
 * Which of an intent's keywords a message mentions. A keyword (or phrase) is present when its
 * words occur in order, or all its content words occur anywhere, compared by stem: "deploying"
 * mentions "deploy", and "the database for staging" mentions "staging database".
 */
export function matchedKeywords(message: StemmedText, keywords: readonly string[]): string[] {
  return keywords.filter((keyword) => {
    const phrase = stemText(keyword);
    return containsPhrase(message, phrase) || contentCoverage(message, phrase) === 1;
  });
}
