// The billing widgets other screens compose (the card dialog asks for the details on the first card).
export { BillingDetailsForm, hasBillingDetails } from "./components/billing-details-form";
