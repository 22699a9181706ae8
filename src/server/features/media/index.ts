// What other features may use of the media store (lint: features import each other only through index.ts).
export { MAX_AUDIO_BYTES, MAX_IMAGE_BYTES, mediaMessages, storeAudio, storeImage, storeMedia } from './media';
