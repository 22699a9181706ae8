/** Who did it, in the audit log and the regrades: "Nguyễn Văn An (0901000009)", or the phone alone when the account has no name. */
export const actorLabel = (entry: { actor_name: string; actor_phone: string }) => (entry.actor_name.trim() ? `${entry.actor_name.trim()} (${entry.actor_phone})` : entry.actor_phone);
