import { ComingSoon } from "../../../components/coming-soon";

export function ApiKeysPage() {
  return (
    <ComingSoon
      title="API Keys"
      description="Keys that authenticate your requests to the API for this project."
    />
  );
}
