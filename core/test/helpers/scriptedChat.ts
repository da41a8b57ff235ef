import type { ChatModelOptions, ChatModelRequest, ChatPrompt, ModelAnswer } from '../../src/platform/chatModel/chatProcess.js';

/** A stand-in for ChatModelSession whose every prompt `answer` answers (hand-written answers in place of the model process). */
export function scriptedSession(answer: (request: ChatModelRequest) => Promise<ModelAnswer>) {
  return class {
    constructor(private readonly options: ChatModelOptions) {}
    ask(prompt: ChatPrompt): Promise<ModelAnswer> {
      return answer({ ...this.options, ...prompt });
    }
    async close(): Promise<void> {}
  };
}
