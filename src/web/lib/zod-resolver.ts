// The resolver every form of the web checks its shared schema with: @hookform/resolvers' Zod
// resolver, with the Vietnamese error map installed first (zod-messages.ts).
import './zod-messages';

export { zodResolver } from '@hookform/resolvers/zod';
