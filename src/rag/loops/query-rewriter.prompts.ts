import type { PromptLanguage, PromptTemplate } from "../../judges/index.js";
import type { RetrievalSource } from "../types.js";
import type { QualityIssueCode } from "./quality-checker.messages.js";

// Seed 001's QueryRewriter prompt ("你是查询优化专家…"), split into a system line and the request so
// servers whose chat templates need a user turn accept it. Only the strategies for the issues
// found are listed: one strategy per issue. Placeholders: {quality_issues} {strategies}
// {original_query}.

export const REWRITE_PROMPTS: Record<PromptLanguage, PromptTemplate> = {
  en: {
    system: "You are a query optimization expert.",
    user: `Problems with the current query:
{quality_issues}

Rewrite the query with these strategies:
{strategies}

Original query: {original_query}

Output the rewritten query (the query text only):`,
  },
  zh: {
    system: "你是查询优化专家。",
    user: `当前查询的问题:
{quality_issues}

请重写查询,改进策略:
{strategies}

原查询: {original_query}

请输出重写后的查询（仅输出查询文本）:`,
  },
};

/** What each source holds, so the coverage strategy can say how to reach it. */
export const SOURCE_HINTS: Record<PromptLanguage, Record<RetrievalSource, string>> = {
  en: {
    lexical: "the exact terms and names the documents use",
    vector: "a complete, plain-language description of the information needed",
    memory: "how earlier, already answered questions on the topic were phrased",
  },
  zh: {
    lexical: "文档中使用的确切术语和名称",
    vector: "对所需信息的完整、自然的描述",
    memory: "此前已回答过的同类问题的表述",
  },
};

/** Seed 001 AC 2: coverage → ask for the priority source; relevance → sharper keywords; one source → several. */
export const REWRITE_STRATEGIES: Record<
  PromptLanguage,
  Record<QualityIssueCode, (source: RetrievalSource, hint: string) => string>
> = {
  en: {
    low_priority_coverage: (source, hint) =>
      `Priority-source coverage is too low → make the query explicitly target the ${source} source: use ${hint}.`,
    low_mean_relevance: () =>
      "Relevance scores are low → use more precise keywords for the exact information asked.",
    single_source: () =>
      "Only one data source answered → make the query explicitly answerable by several sources: give both the key terms and a plain description.",
    few_documents: () =>
      "Too few documents → broaden the query's scope with synonyms and closely related terms.",
    no_documents: () =>
      "No documents were retrieved → use more general words and common synonyms; drop rare or misspelled terms.",
    vague_query: () =>
      "The query is too vague and its matches spread over unrelated documents → name the specific subject and what is asked about it, in the documents' own terms.",
  },
  zh: {
    low_priority_coverage: (source, hint) =>
      `优先数据源覆盖率不足 → 明确要求检索 ${source} 数据源：使用${hint}。`,
    low_mean_relevance: () => "相关性分数低 → 使用更精确的关键词。",
    single_source: () => "数据源单一 → 明确要求多数据源检索：同时给出关键术语和自然描述。",
    few_documents: () => "文档数量不足 → 扩展查询范围，加入同义词和相关术语。",
    no_documents: () => "未检索到文档 → 使用更通用的词语和常见同义词，去掉生僻或拼错的词。",
    vague_query: () =>
      "查询过于模糊，结果分散在无关文档中 → 用文档中的术语写明具体对象和所问的内容。",
  },
};

/** Prefixes a chatty model puts before the query, removed from its reply. */
export const REPLY_PREFIXES =
  /^(?:rewritten query|new query|query|optimized query|重写后的查询|改写后的查询|优化后的查询|查询)\s*[:：]\s*/i;
