// The recorded clips of an exam's questions and answers (read aloud instead of the device's
// voice). The drawn questions of an exam are a snapshot without them; clips are looked up when the
// exam is opened, so a clip the organiser adds or fixes later is heard too.
import type { Db } from '../../db/client';
import type { ExamQuestion } from '../../db/schema';

export async function withClips(db: Db, questions: ExamQuestion[]): Promise<(ExamQuestion & { audio?: string })[]> {
  const ids = questions.map((question) => question.id);
  if (ids.length === 0) return questions;
  const [questionClips, answerClips] = await Promise.all([
    db.selectFrom('questions').select(['id', 'audio']).where('id', 'in', ids).where('audio', 'is not', null).execute(),
    db.selectFrom('answers').select(['id', 'audio']).where('question_id', 'in', ids).where('audio', 'is not', null).execute(),
  ]);
  if (questionClips.length === 0 && answerClips.length === 0) return questions;
  const questionClip = new Map(questionClips.map((row) => [row.id, row.audio!]));
  const answerClip = new Map(answerClips.map((row) => [row.id, row.audio!]));
  return questions.map((question) => ({
    ...question,
    ...(questionClip.has(question.id) ? { audio: questionClip.get(question.id) } : {}),
    answers: question.answers.map((answer) => (answerClip.has(answer.id) ? { ...answer, audio: answerClip.get(answer.id) } : answer)),
  }));
}
