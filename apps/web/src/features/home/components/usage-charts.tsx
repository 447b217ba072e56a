import "@mantine/charts/styles.css";

// The home page's charts (and through them recharts) as one chunk of their own, loaded while the rest
// of the page already shows: the largest library of the console reaches no other page (issue 16).
export { BarChart, PieChart } from "@mantine/charts";
