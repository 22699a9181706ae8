// The server's Vietnamese Zod error map for this runtime: a schema's issue without a message of
// its own says what is wrong in Vietnamese, as the server's answer would. Imported (for this
// effect) by every module of the web that checks with a shared schema: zod-resolver.ts, and the
// few screens that call safeParse themselves. Not in main.tsx: only a screen with a form loads Zod,
// and the home page's bundle (no form) stays without the map.
import { installVietnameseValidation } from '../../shared/schemas/validation-errors';

installVietnameseValidation();
