import { describe, expect, it } from 'vitest';
import { looksGathering } from '../src/search/gatheringQuestion.js';

describe('questions that gather their answer from several places', () => {
  it('are told apart from questions about one thing', () => {
    for (const q of [
      'What books has Melanie read?',
      'What board games has Nate played?',
      'How many times has Nate taken his turtles on a walk?',
      'What do Jon and Gina both have in common?',
      'What has Melanie painted?',
      'Where has Melanie camped?',
      "What are Joanna's hobbies?",
      'What kinds of pottery have they made?',
    ]) {
      expect(looksGathering(q), q).toBe(true);
    }
    for (const q of [
      "What is Caroline's identity?",
      'When did Melanie go camping?',
      'What kind of pot did Mel make with clay?',
      'Which book did Melanie read from Caroline’s suggestion?',
      'boiler pressure',
    ]) {
      expect(looksGathering(q), q).toBe(false);
    }
  });

  it('takes any input without failing', () => {
    expect(looksGathering('')).toBe(false);
    expect(looksGathering('?!… ()')).toBe(false);
    expect(looksGathering('the of and '.repeat(2000))).toBe(false);
    expect(looksGathering(`${'word '.repeat(5000)}how many`)).toBe(true);
  });
});
