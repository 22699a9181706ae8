// The worker thread of a question import (questionFile, question-file-reader.ts): readQuestionFile,
// its problems handed over as their state (ImportProblems.from rebuilds them).
import { serveFileRead } from '../kit/file-reader-worker';
import { readQuestionFile } from './question-file';

await serveFileRead<{ allProblems: boolean }>(async (upload, { allProblems }) => {
  const { questions, problems, ...rest } = await readQuestionFile(upload, { allProblems });
  return { items: questions, done: { ...rest, problems: problems.state() } };
});
