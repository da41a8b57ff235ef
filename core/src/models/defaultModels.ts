/** The embedding model Reverie uses unless the person chooses another: small, multilingual, 768 dims. */
export const DEFAULT_EMBEDDING_MODEL_URI = 'hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf';
export const DEFAULT_EMBEDDING_DIMS = 768;

export const DEFAULT_EMBEDDING_MODEL = {
  uri: DEFAULT_EMBEDDING_MODEL_URI,
  role: 'embedding',
  dims: DEFAULT_EMBEDDING_DIMS,
} as const;

export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';
