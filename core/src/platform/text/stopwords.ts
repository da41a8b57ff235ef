// The list lives in the contract so the window highlights exactly the words search matches on.
export { STOPWORDS } from '../../contract/stopwords.js';
