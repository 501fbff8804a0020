/** A reflection split into its answers, each with the question it answers. */
export interface ReflectionAnswers {
  /** The answers only, one paragraph each: what goes into the vector index. */
  text: string;
  /** The question of each paragraph, in the same order: what the thoughts page shows above it. */
  questions: string[];
  /** Whether the answer followed the numbered format. */
  numbered: boolean;
}

const NUMBER = /^[ \t]*(?:[*_]{1,2})?([1-9])[.):](?:[*_]{1,2})?[ \t]*/gm;

/**
 * Splits a reflection answered as "1. …", "4. …" into its answers. Whatever
 * stands before the first number is a preamble (a recap of the material,
 * "Here are my thoughts:") and is dropped. A question the model copied in
 * front of its answer is removed too. Without numbers the whole text is one
 * answer to all questions, so nothing is lost.
 */
export function splitAnswers(text: string, questions: string[]): ReflectionAnswers {
  const matches = [...text.matchAll(NUMBER)].filter((m) => Number(m[1]) <= questions.length);
  const answers: { question: string; text: string }[] = [];
  for (const [i, m] of matches.entries()) {
    const start = m.index + m[0].length;
    const end = matches[i + 1]?.index ?? text.length;
    const question = questions[Number(m[1]) - 1]!;
    let answer = text.slice(start, end).trim();
    if (answer.startsWith(question)) answer = answer.slice(question.length).trim();
    // One paragraph per answer, so text and questions stay aligned when split on blank lines.
    answer = answer.replace(/\n[ \t]*(?:\r?\n[ \t]*)+/g, "\n").trim();
    if (answer) answers.push({ question, text: answer });
  }
  if (answers.length === 0) {
    const whole = text.trim();
    return { text: whole, questions: whole ? [...questions] : [], numbered: false };
  }
  return { text: answers.map((a) => a.text).join("\n\n"), questions: answers.map((a) => a.question), numbered: true };
}

/**
 * Pairs a stored thought's paragraphs with its stored questions (JSON array)
 * for display; unpaired parts come without a question.
 */
export function pairAnswers(text: string, questionsJson: unknown): { question?: string; answer: string }[] {
  let questions: string[] = [];
  if (typeof questionsJson === "string" && questionsJson) {
    try {
      const parsed: unknown = JSON.parse(questionsJson);
      if (Array.isArray(parsed)) questions = parsed.filter((q): q is string => typeof q === "string");
    } catch {
      // Not JSON (an older or hand-edited row): show the answers without questions.
      questions = [];
    }
  }
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (paragraphs.length !== questions.length) return [{ answer: text.trim() }];
  return paragraphs.map((answer, i) => ({ question: questions[i]!, answer }));
}
