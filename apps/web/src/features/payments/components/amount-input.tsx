import { NumberInput, type NumberInputProps } from "@mantine/core";
import { MAX_RECHARGE_USD, MIN_RECHARGE_USD } from "@prism/contract";
import { clampRechargeAmount } from "../lib/amount";

/**
 * A dollar amount of at least $20 (recharge, auto-recharge threshold and amount). Typing is free;
 * leaving the field raises a smaller or empty value to the minimum (spec 000 §5).
 */
export function AmountInput({
  value,
  onChange,
  ...props
}: {
  value: number | string;
  onChange: (value: number | string) => void;
} & Omit<NumberInputProps, "value" | "onChange" | "min" | "max" | "clampBehavior">) {
  return (
    <NumberInput
      prefix="$"
      decimalScale={2}
      thousandSeparator=","
      allowNegative={false}
      clampBehavior="none"
      hideControls
      inputMode="decimal"
      {...props}
      value={value}
      onChange={onChange}
      onBlur={(event) => {
        onChange(clampRechargeAmount(value));
        props.onBlur?.(event);
      }}
      description={
        props.description ??
        `Minimum $${MIN_RECHARGE_USD}, maximum $${MAX_RECHARGE_USD.toLocaleString("en-US")}.`
      }
    />
  );
}
