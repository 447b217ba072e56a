import { type AudioUploadProps, AudioUpload as SharedAudioUpload } from "../../../components/audio-upload";
import { type ImageUploadProps, ImageUpload as SharedImageUpload } from "../../../components/image-upload";
import { checkAudioUpload } from "../lib/audio-checks";
import { checkImageUpload } from "../lib/upload-checks";

/** The shared image drop area with the playground's checks of a dropped image. */
export function ImageUpload(props: Omit<ImageUploadProps, "check">) {
  return <SharedImageUpload check={checkImageUpload} {...props} />;
}

/** The shared audio drop area with the playground's checks of a dropped audio file. */
export function AudioUpload(props: Omit<AudioUploadProps, "check">) {
  return <SharedAudioUpload check={checkAudioUpload} {...props} />;
}
