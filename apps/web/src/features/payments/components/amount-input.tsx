import { NumberInput, type NumberInputProps, Text } from "@mantine/core";
import { RECHARGE_LIMITS_HINT, RECHARGE_MINIMUM_HINT, RECHARGE_RAISED_TO_MINIMUM } from "@prism/contract";
import { useState } from "react";
import { clampRechargeAmount, isBelowRechargeMinimum, rechargeAmountError } from "../lib/amount";

/**
 * A dollar amount of at least $20 (recharge, auto-recharge threshold and amount). Typing is free;
 * leaving the field raises a smaller or empty value to the minimum and says so beside the field, where
 * the minimum is always named (after the field's own description when it has one). An amount above the
 * maximum is marked with the reason; the forms refuse to send it.
 */
export function AmountInput({
  value,
  onChange,
  ...props
}: {
  value: number | string;
  onChange: (value: number | string) => void;
} & Omit<NumberInputProps, "value" | "onChange" | "min" | "max" | "clampBehavior">) {
  // Set when leaving the field raised the value; typing again takes the note away.
  const [raised, setRaised] = useState(false);
  const hint = props.description ? `${props.description} (${RECHARGE_MINIMUM_HINT})` : RECHARGE_LIMITS_HINT;
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
      onChange={(next) => {
        setRaised(false);
        onChange(next);
      }}
      onBlur={(event) => {
        if (!props.disabled && isBelowRechargeMinimum(value)) setRaised(true);
        onChange(clampRechargeAmount(value));
        props.onBlur?.(event);
      }}
      error={props.error ?? rechargeAmountError(value)}
      description={
        raised ? (
          <>
            {hint}{" "}
            <Text span inherit c="orange.9" fw={600} role="status">
              {RECHARGE_RAISED_TO_MINIMUM}
            </Text>
          </>
        ) : (
          hint
        )
      }
    />
  );
}
