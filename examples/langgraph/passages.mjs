// A small retriever for the examples: passages in memory, scored by the share of the query's
// longer words they contain. Any LangChain retriever (a vector store's `asRetriever()`) works the
// same way in its place.

const PASSAGES = [
  { id: "bridge", content: "The Lanting bridge was built in 1870 by the river guild." },
  { id: "museum", content: "Tickets to the bridge museum cost 12 yuan for adults." },
  { id: "ferry", content: "The ferry to the east bank leaves every twenty minutes." },
];

const words = (text) => text.toLowerCase().match(/[a-z0-9]{4,}/g) ?? [];

/** The passages sharing a word with the query, best first, each with its score in [0, 1]. */
export async function searchPassages({ query }) {
  const asked = words(query);
  return PASSAGES.map((passage) => {
    const own = new Set(words(passage.content));
    const score = asked.length ? asked.filter((w) => own.has(w)).length / asked.length : 0;
    return { ...passage, score };
  })
    .filter((passage) => passage.score > 0)
    .sort((a, b) => b.score - a.score);
}
