<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>ayar::ChartLegendEntry</name>
    <message>
        <source>Click to hide or show this line</source>
        <translation>Click to hide or show this line</translation>
    </message>
</context>
<context>
    <name>ayar::ChartWidget</name>
    <message>
        <source>Reset zoom</source>
        <translation>Reset zoom</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>Save as PNG…</translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>Save chart</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG image (*.png)</translation>
    </message>
    <message>
        <source>Save as SVG…</source>
        <translation>Save as SVG…</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG drawing (*.svg)</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>ayar::ComparePage</name>
    <message>
        <source>Baseline</source>
        <translation>Baseline</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Candidates</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Distribution</translation>
    </message>
    <message>
        <source>End-to-end latency</source>
        <translation>End-to-end latency</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Compare</translation>
    </message>
    <message>
        <source>Copy table</source>
        <translation>Copy table</translation>
    </message>
    <message>
        <source>CDF</source>
        <translation>CDF</translation>
    </message>
    <message>
        <source>Box plot</source>
        <translation>Box plot</translation>
    </message>
    <message>
        <source>Choose a baseline and tick at least one candidate.</source>
        <translation>Choose a baseline and tick at least one candidate.</translation>
    </message>
    <message>
        <source>CDF (%)</source>
        <translation>CDF (%)</translation>
    </message>
    <message>
        <source>Compare runs first, then export the comparison.</source>
        <translation>Compare runs first, then export the comparison.</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Export report</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;HTML (*.html);;Markdown (*.md);;CSV (*.csv);;JSON (*.json)</source>
        <translation>PDF (*.pdf);;HTML (*.html);;Markdown (*.md);;CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Export report…</translation>
    </message>
    <message>
        <source>PDF, HTML (charts embedded), Markdown, CSV or JSON, in the report language below</source>
        <translation>PDF, HTML (charts embedded), Markdown, CSV or JSON, in the report language below</translation>
    </message>
    <message>
        <source>Report language</source>
        <translation>Report language</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Report written to %1</translation>
    </message>
    <message>
        <source>Logarithmic axis</source>
        <translation>Logarithmic axis</translation>
    </message>
    <message>
        <source>Powers of ten on the value axis, for runs far apart; chosen when the medians differ tenfold or more</source>
        <translation>Powers of ten on the value axis, for runs far apart; chosen when the medians differ tenfold or more</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Every request of the run was sent and answered.</source>
        <translation>Every request of the run was sent and answered.</translation>
    </message>
    <message>
        <source>Stopped: the figures cover the requests that finished before the stop.</source>
        <translation>Stopped: the figures cover the requests that finished before the stop.</translation>
    </message>
    <message>
        <source>Interrupted when Ayar stopped: the figures cover the requests that finished.</source>
        <translation>Interrupted when Ayar stopped: the figures cover the requests that finished.</translation>
    </message>
    <message>
        <source>The run failed: its figures may be missing or partial.</source>
        <translation>The run failed: its figures may be missing or partial.</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>Figures</translation>
    </message>
    <message>
        <source>The figures the table and the exported report list</source>
        <translation>The figures the table and the exported report list</translation>
    </message>
</context>
<context>
    <name>ayar::ComparisonTableModel</name>
    <message>
        <source>Latencies: baseline / candidate. Throughputs: candidate / baseline. Above 1 the candidate is better.</source>
        <translation>Latencies: baseline / candidate. Throughputs: candidate / baseline. Above 1 the candidate is better.</translation>
    </message>
    <message>
        <source>Computing the confidence interval from both runs&apos; requests…</source>
        <translation>Computing the confidence interval from both runs&apos; requests…</translation>
    </message>
</context>
<context>
    <name>ayar::DistributionChart</name>
    <message>
        <source>%1 (s)</source>
        <translation>%1 (s)</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1 (ms)</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n outside the axis)</source>
        <translation>
            <numerusform>%1 (%n outside the axis)</numerusform>
            <numerusform>%1 (%n outside the axis)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ayar::EngineFlagForm</name>
    <message>
        <source>Memory</source>
        <translation>Memory</translation>
    </message>
    <message>
        <source>Batching</source>
        <translation>Batching</translation>
    </message>
    <message>
        <source>Caching</source>
        <translation>Caching</translation>
    </message>
    <message>
        <source>Execution</source>
        <translation>Execution</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Output</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>Parallelism</translation>
    </message>
    <message>
        <source>Scheduling</source>
        <translation>Scheduling</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Other</translation>
    </message>
    <message>
        <source>engine default: %1</source>
        <translation>engine default: %1</translation>
    </message>
    <message>
        <source>engine default</source>
        <translation>engine default</translation>
    </message>
    <message>
        <source>on</source>
        <translation>on</translation>
    </message>
    <message>
        <source>off</source>
        <translation>off</translation>
    </message>
</context>
<context>
    <name>ayar::HistoryModel</name>
    <message>
        <source>imported (%1)</source>
        <translation>imported (%1)</translation>
    </message>
    <message>
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>completed</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>interrupted</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>stopped</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Started</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profile</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Requests</translation>
    </message>
    <message>
        <source>Mean TTFT (ms)</source>
        <translation>Mean TTFT (ms)</translation>
    </message>
    <message>
        <source>Output (tok/s)</source>
        <translation>Output (tok/s)</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>Study</translation>
    </message>
    <message>
        <source>%1, edited</source>
        <translation>%1, edited</translation>
    </message>
    <message>
        <source>SIMULATED</source>
        <translation>SIMULATED</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>ayar::HistoryPage</name>
    <message>
        <source>Search label, model, engine, flag, profile, date…</source>
        <translation>Search label, model, engine, flag, profile, date…</translation>
    </message>
    <message>
        <source>every status</source>
        <translation>every status</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Show</translation>
    </message>
    <message>
        <source>Compare selected</source>
        <translation>Compare selected</translation>
    </message>
    <message>
        <source>The first selected run is the baseline</source>
        <translation>The first selected run is the baseline</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Delete</translation>
    </message>
    <message>
        <source>Import results…</source>
        <translation>Import results…</translation>
    </message>
    <message>
        <source>vLLM, guidellm, AIPerf and genai-perf result files; you can also drop them on the window</source>
        <translation>vLLM, guidellm, AIPerf and genai-perf result files; you can also drop them on the window</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Refresh</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Undo</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) deleted</source>
        <translation>
            <numerusform>%n run deleted</numerusform>
            <numerusform>%n runs deleted</numerusform>
        </translation>
    </message>
    <message>
        <source>Set up again</source>
        <translation>Set up again</translation>
    </message>
    <message>
        <source>Put the selected run&apos;s engine, flags and profile into Setup, to run it again</source>
        <translation>Put the selected run&apos;s engine, flags and profile into Setup, to run it again</translation>
    </message>
</context>
<context>
    <name>ayar::LivePage</name>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Stop the run and keep what was measured</source>
        <translation>Stop the run and keep what was measured</translation>
    </message>
    <message>
        <source>Latency per request</source>
        <translation>Latency per request</translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>time (s)</translation>
    </message>
    <message>
        <source>output tokens/s</source>
        <translation>output tokens/s</translation>
    </message>
    <message>
        <source>requests in flight</source>
        <translation>requests in flight</translation>
    </message>
    <message>
        <source>queue (waiting)</source>
        <translation>queue (waiting)</translation>
    </message>
    <message>
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <source>GPU (NVML)</source>
        <translation>GPU (NVML)</translation>
    </message>
    <message>
        <source>utilisation (%)</source>
        <translation>utilisation (%)</translation>
    </message>
    <message>
        <source>memory (GiB)</source>
        <translation>memory (GiB)</translation>
    </message>
    <message>
        <source>power (W)</source>
        <translation>power (W)</translation>
    </message>
    <message>
        <source>ETA: –</source>
        <translation>ETA: –</translation>
    </message>
    <message>
        <source>ETA: %1 s</source>
        <translation>ETA: %1 s</translation>
    </message>
    <message>
        <source>Sent %1 · in flight %2 · done %3 · failed %4 of %5 · %6 s · %7</source>
        <translation>Sent %1 · in flight %2 · done %3 · failed %4 of %5 · %6 s · %7</translation>
    </message>
    <message>
        <source>Output throughput</source>
        <translation>Output throughput</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokens/s</translation>
    </message>
    <message>
        <source>Load and engine state (/metrics)</source>
        <translation>Load and engine state (/metrics)</translation>
    </message>
    <message>
        <source>Stopped: what was measured is kept in the store.</source>
        <translation>Stopped: what was measured is kept in the store.</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>Finished.</translation>
    </message>
    <message>
        <source>end-to-end latency</source>
        <translation>end-to-end latency</translation>
    </message>
    <message>
        <source>KV cache use</source>
        <translation>KV cache use</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>requests</translation>
    </message>
    <message>
        <source>KV cache (%)</source>
        <translation>KV cache (%)</translation>
    </message>
    <message>
        <source>utilisation</source>
        <translation>utilisation</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>memory</translation>
    </message>
    <message>
        <source>power</source>
        <translation>power</translation>
    </message>
    <message>
        <source>end-to-end (s)</source>
        <translation>end-to-end (s)</translation>
    </message>
    <message>
        <source>end-to-end (ms)</source>
        <translation>end-to-end (ms)</translation>
    </message>
    <message>
        <source>TTFT (s)</source>
        <translation>TTFT (s)</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>TTFT (ms)</translation>
    </message>
</context>
<context>
    <name>ayar::MainWindow</name>
    <message>
        <source>Import result files</source>
        <translation>Import result files</translation>
    </message>
    <message>
        <source>Result files (*.json *.jsonl);;All files (*)</source>
        <translation>Result files (*.json *.jsonl);;All files (*)</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) were interrupted when Ayar last stopped; their finished requests are kept.</source>
        <translation>
            <numerusform>%n run was interrupted when Ayar last stopped; its finished requests are kept.</numerusform>
            <numerusform>%n runs were interrupted when Ayar last stopped; their finished requests are kept.</numerusform>
        </translation>
    </message>
    <message>
        <source>Ayar — LLM serving workbench</source>
        <translation>Ayar — LLM serving workbench</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Results</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Compare</translation>
    </message>
    <message>
        <source>History</source>
        <translation>History</translation>
    </message>
    <message>
        <source>Studies</source>
        <translation>Studies</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>Setup</translation>
    </message>
    <message>
        <source>Engine log</source>
        <translation>Engine log</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Import results…</source>
        <translation>&amp;Import results…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <source>Light theme</source>
        <translation>Light theme</translation>
    </message>
    <message>
        <source>Dark theme</source>
        <translation>Dark theme</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Language</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>Store: %1</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>Cannot start: %1</translation>
    </message>
    <message>
        <source>Run started</source>
        <translation>Run started</translation>
    </message>
    <message>
        <source>Stopping: requests in flight end, everything finished is kept</source>
        <translation>Stopping: requests in flight end, everything finished is kept</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>The run failed: %1</translation>
    </message>
    <message>
        <source>Run #%1 stopped; what was measured is kept</source>
        <translation>Run #%1 stopped; what was measured is kept</translation>
    </message>
    <message>
        <source>Run #%1 finished</source>
        <translation>Run #%1 finished</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n run(s)</source>
        <translation>
            <numerusform>Imported %n run</numerusform>
            <numerusform>Imported %n runs</numerusform>
        </translation>
    </message>
    <message>
        <source>Run #%1 is not in the store</source>
        <translation>Run #%1 is not in the store</translation>
    </message>
    <message>
        <source>Run #%1 was not made by Ayar: it has no set-up to repeat</source>
        <translation>Run #%1 was not made by Ayar: it has no set-up to repeat</translation>
    </message>
    <message>
        <source>Run #%1&apos;s set-up is in Setup: change what you like and start it</source>
        <translation>Run #%1&apos;s set-up is in Setup: change what you like and start it</translation>
    </message>
</context>
<context>
    <name>ayar::ProfileEditor</name>
    <message>
        <source>Preset</source>
        <translation>Preset</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Dataset</translation>
    </message>
    <message>
        <source>ShareGPT file</source>
        <translation>ShareGPT file</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Load</translation>
    </message>
    <message>
        <source>Request rate (/s)</source>
        <translation>Request rate (/s)</translation>
    </message>
    <message>
        <source>Burstiness</source>
        <translation>Burstiness</translation>
    </message>
    <message>
        <source>Max concurrency</source>
        <translation>Max concurrency</translation>
    </message>
    <message>
        <source>Concurrency</source>
        <translation>Concurrency</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Requests</translation>
    </message>
    <message>
        <source>Input tokens</source>
        <translation>Input tokens</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>Output tokens</translation>
    </message>
    <message>
        <source>Length range ratio</source>
        <translation>Length range ratio</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>custom</translation>
    </message>
    <message>
        <source>requests per second</source>
        <translation>requests per second</translation>
    </message>
    <message>
        <source>fixed concurrency</source>
        <translation>fixed concurrency</translation>
    </message>
    <message>
        <source>all at once</source>
        <translation>all at once</translation>
    </message>
    <message>
        <source>a number, or inf for all at once</source>
        <translation>a number, or inf for all at once</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>no cap</translation>
    </message>
    <message>
        <source>Prefix tokens</source>
        <translation>Prefix tokens</translation>
    </message>
    <message>
        <source>Prefixes</source>
        <translation>Prefixes</translation>
    </message>
    <message>
        <source>Random tokens (random)</source>
        <translation>Random tokens (random)</translation>
    </message>
    <message>
        <source>ShareGPT conversations (sharegpt)</source>
        <translation>ShareGPT conversations (sharegpt)</translation>
    </message>
    <message>
        <source>Synthetic ShareGPT-like (synthetic-sharegpt)</source>
        <translation>Synthetic ShareGPT-like (synthetic-sharegpt)</translation>
    </message>
    <message>
        <source>Shared prefixes (prefix-repetition)</source>
        <translation>Shared prefixes (prefix-repetition)</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>edited</translation>
    </message>
    <message>
        <source>The fields no longer hold the preset as shipped: the run is stored as edited, with what the fields say.</source>
        <translation>The fields no longer hold the preset as shipped: the run is stored as edited, with what the fields say.</translation>
    </message>
    <message>
        <source>1: Poisson, inf: evenly spaced</source>
        <translation>1: Poisson, inf: evenly spaced</translation>
    </message>
    <message>
        <source>Only the ShareGPT dataset reads a file.</source>
        <translation>Only the ShareGPT dataset reads a file.</translation>
    </message>
    <message>
        <source>Not used by this dataset: its prompts are its own, with their own lengths.</source>
        <translation>Not used by this dataset: its prompts are its own, with their own lengths.</translation>
    </message>
    <message>
        <source>Only the random dataset draws lengths around the given ones.</source>
        <translation>Only the random dataset draws lengths around the given ones.</translation>
    </message>
    <message>
        <source>Only the shared-prefix dataset has prefixes.</source>
        <translation>Only the shared-prefix dataset has prefixes.</translation>
    </message>
    <message>
        <source>Used when requests are sent at a rate.</source>
        <translation>Used when requests are sent at a rate.</translation>
    </message>
    <message>
        <source>Used with a fixed concurrency only.</source>
        <translation>Used with a fixed concurrency only.</translation>
    </message>
    <message>
        <source>A fixed concurrency is its own cap on requests in flight.</source>
        <translation>A fixed concurrency is its own cap on requests in flight.</translation>
    </message>
    <message>
        <source>Tokens after the prefix</source>
        <translation>Tokens after the prefix</translation>
    </message>
    <message>
        <source>the dataset&apos;s</source>
        <translation>the dataset&apos;s</translation>
    </message>
    <message>
        <source>Random prompts of exactly Input tokens (spread by the length range ratio), each asked for exactly Output tokens: ignore_eos is sent.</source>
        <translation>Random prompts of exactly Input tokens (spread by the length range ratio), each asked for exactly Output tokens: ignore_eos is sent.</translation>
    </message>
    <message>
        <source>Prompts and reply lengths come from the ShareGPT file (without one, from a synthetic ShareGPT-like set). Output tokens, when set, makes every reply that long instead.</source>
        <translation>Prompts and reply lengths come from the ShareGPT file (without one, from a synthetic ShareGPT-like set). Output tokens, when set, makes every reply that long instead.</translation>
    </message>
    <message>
        <source>Prompts and reply lengths drawn as ShareGPT&apos;s are. Output tokens, when set, makes every reply that long instead.</source>
        <translation>Prompts and reply lengths drawn as ShareGPT&apos;s are. Output tokens, when set, makes every reply that long instead.</translation>
    </message>
    <message>
        <source>Each prompt starts with one of the shared prefixes (Prefix tokens long) and goes on with Tokens after the prefix of its own; each is asked for exactly Output tokens.</source>
        <translation>Each prompt starts with one of the shared prefixes (Prefix tokens long) and goes on with Tokens after the prefix of its own; each is asked for exactly Output tokens.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>empty. Enter requests per second (for example %1), or inf to send them all at once.</source>
        <translation>empty. Enter requests per second (for example %1), or inf to send them all at once.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number. Enter requests per second (for example %2), or inf to send them all at once.</source>
        <translation>&quot;%1&quot; is not a number. Enter requests per second (for example %2), or inf to send them all at once.</translation>
    </message>
    <message>
        <source>must be above 0 (or inf, to send all at once).</source>
        <translation>must be above 0 (or inf, to send all at once).</translation>
    </message>
    <message>
        <source>must be a number above 0: 1 for Poisson arrivals, inf for evenly spaced ones.</source>
        <translation>must be a number above 0: 1 for Poisson arrivals, inf for evenly spaced ones.</translation>
    </message>
    <message>
        <source>there is no file %1. Choose a ShareGPT JSON file, or leave the field empty for a synthetic ShareGPT-like set.</source>
        <translation>there is no file %1. Choose a ShareGPT JSON file, or leave the field empty for a synthetic ShareGPT-like set.</translation>
    </message>
    <message>
        <source>none: a synthetic set</source>
        <translation>none: a synthetic set</translation>
    </message>
    <message>
        <source>Ramp-up</source>
        <translation>Ramp-up</translation>
    </message>
    <message>
        <source>Ramp-up from (/s)</source>
        <translation>Ramp-up from (/s)</translation>
    </message>
    <message>
        <source>Ramp-up to (/s)</source>
        <translation>Ramp-up to (/s)</translation>
    </message>
    <message>
        <source>Rates between</source>
        <translation>Rates between</translation>
    </message>
    <message>
        <source>sweep: one at a time to all at once</source>
        <translation>sweep: one at a time to all at once</translation>
    </message>
    <message>
        <source>Runs the requests one at a time, then all at once, then at rates between the two throughputs: a curve of latency against load.</source>
        <translation>Runs the requests one at a time, then all at once, then at rates between the two throughputs: a curve of latency against load.</translation>
    </message>
    <message>
        <source>none: a steady rate</source>
        <translation>none: a steady rate</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>linear</translation>
    </message>
    <message>
        <source>exponential</source>
        <translation>exponential</translation>
    </message>
    <message>
        <source>How many rates the sweep runs between one at a time and all at once.</source>
        <translation>How many rates the sweep runs between one at a time and all at once.</translation>
    </message>
    <message>
        <source>A ramp-up sets the rate itself.</source>
        <translation>A ramp-up sets the rate itself.</translation>
    </message>
    <message>
        <source>Used with a ramp-up only.</source>
        <translation>Used with a ramp-up only.</translation>
    </message>
    <message>
        <source>Used by a sweep only.</source>
        <translation>Used by a sweep only.</translation>
    </message>
    <message>
        <source>must not be below Ramp-up from (%1).</source>
        <translation>must not be below Ramp-up from (%1).</translation>
    </message>
</context>
<context>
    <name>ayar::RequestOptionsEditor</name>
    <message>
        <source>Requests</source>
        <translation>Requests</translation>
    </message>
    <message>
        <source>Sampling (sent in every request)</source>
        <translation>Sampling (sent in every request)</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Results</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Path</translation>
    </message>
    <message>
        <source>Model name sent</source>
        <translation>Model name sent</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Headers</translation>
    </message>
    <message>
        <source>Extra body (JSON)</source>
        <translation>Extra body (JSON)</translation>
    </message>
    <message>
        <source>Request timeout (s)</source>
        <translation>Request timeout (s)</translation>
    </message>
    <message>
        <source>Warm-up requests</source>
        <translation>Warm-up requests</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperature</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Frequency penalty</source>
        <translation>Frequency penalty</translation>
    </message>
    <message>
        <source>Presence penalty</source>
        <translation>Presence penalty</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>Repetition penalty</translation>
    </message>
    <message>
        <source>Percentiles</source>
        <translation>Percentiles</translation>
    </message>
    <message>
        <source>Goodput SLO: TTFT (ms)</source>
        <translation>Goodput SLO: TTFT (ms)</translation>
    </message>
    <message>
        <source>Goodput SLO: TPOT (ms)</source>
        <translation>Goodput SLO: TPOT (ms)</translation>
    </message>
    <message>
        <source>Goodput SLO: latency (ms)</source>
        <translation>Goodput SLO: latency (ms)</translation>
    </message>
    <message>
        <source>the engine&apos;s model name</source>
        <translation>the engine&apos;s model name</translation>
    </message>
    <message>
        <source>Ask for the whole output length (ignore_eos)</source>
        <translation>Ask for the whole output length (ignore_eos)</translation>
    </message>
    <message>
        <source>The random dataset always sends ignore_eos, as vLLM does: every reply is exactly Output tokens long.</source>
        <translation>The random dataset always sends ignore_eos, as vLLM does: every reply is exactly Output tokens long.</translation>
    </message>
    <message>
        <source>The server keeps generating past the end-of-text token until the requested length.</source>
        <translation>The server keeps generating past the end-of-text token until the requested length.</translation>
    </message>
    <message>
        <source>Name: value, one a line. Used for this session only, never stored.</source>
        <translation>Name: value, one a line. Used for this session only, never stored.</translation>
    </message>
    <message>
        <source>Which percentiles the results list, e.g. %1</source>
        <translation>Which percentiles the results list, e.g. %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>none</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>a path starts with /, like %1.</source>
        <translation>a path starts with /, like %1.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number. %2</source>
        <translation>&quot;%1&quot; is not a number. %2</translation>
    </message>
    <message>
        <source>Give 0 or more, or leave it empty.</source>
        <translation>Give 0 or more, or leave it empty.</translation>
    </message>
    <message>
        <source>Give a number above 0 and at most %1, or leave it empty.</source>
        <translation>Give a number above 0 and at most %1, or leave it empty.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a count of tokens. Give a whole number of at least 1 (-1 turns it off), or leave it empty.</source>
        <translation>&quot;%1&quot; is not a count of tokens. Give a whole number of at least 1 (-1 turns it off), or leave it empty.</translation>
    </message>
    <message>
        <source>Give a number from 0 to %1, or leave it empty.</source>
        <translation>Give a number from 0 to %1, or leave it empty.</translation>
    </message>
    <message>
        <source>Give a number from %1 to %2, or leave it empty.</source>
        <translation>Give a number from %1 to %2, or leave it empty.</translation>
    </message>
    <message>
        <source>Give a number above 0, or leave it empty.</source>
        <translation>Give a number above 0, or leave it empty.</translation>
    </message>
    <message>
        <source>line %1 is not &quot;Name: value&quot; (a header name is letters, digits and dashes).</source>
        <translation>line %1 is not &quot;Name: value&quot; (a header name is letters, digits and dashes).</translation>
    </message>
    <message>
        <source>not a JSON object. Write one such as %1, or leave it empty.</source>
        <translation>not a JSON object. Write one such as %1, or leave it empty.</translation>
    </message>
    <message>
        <source>Give a number of seconds above 0, or leave it empty.</source>
        <translation>Give a number of seconds above 0, or leave it empty.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a percentile. List numbers above 0 and at most 100, e.g. %2.</source>
        <translation>&quot;%1&quot; is not a percentile. List numbers above 0 and at most 100, e.g. %2.</translation>
    </message>
    <message>
        <source>empty. List at least one, e.g. %1.</source>
        <translation>empty. List at least one, e.g. %1.</translation>
    </message>
    <message>
        <source>Give milliseconds above 0, or leave it empty.</source>
        <translation>Give milliseconds above 0, or leave it empty.</translation>
    </message>
    <message>
        <source>Completions</source>
        <translation>Completions</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Completions sends a prompt (vLLM&apos;s openai backend); Chat sends messages through the model&apos;s chat template (openai-chat).</source>
        <translation>Completions sends a prompt (vLLM&apos;s openai backend); Chat sends messages through the model&apos;s chat template (openai-chat).</translation>
    </message>
    <message>
        <source>A JSON object merged into every request body.</source>
        <translation>A JSON object merged into every request body.</translation>
    </message>
    <message>
        <source>0: greedy</source>
        <translation>0: greedy</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>not sent</translation>
    </message>
    <message>
        <source>Empty: not sent, the server&apos;s default applies.</source>
        <translation>Empty: not sent, the server&apos;s default applies.</translation>
    </message>
    <message>
        <source>Ready check (s)</source>
        <translation>Ready check (s)</translation>
    </message>
    <message>
        <source>Request id prefix</source>
        <translation>Request id prefix</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>Tokenizer</translation>
    </message>
    <message>
        <source>Log-probabilities</source>
        <translation>Log-probabilities</translation>
    </message>
    <message>
        <source>one try</source>
        <translation>one try</translation>
    </message>
    <message>
        <source>Retry the test request every 5 s for this long before the run; 0 skips it.</source>
        <translation>Retry the test request every 5 s for this long before the run; 0 skips it.</translation>
    </message>
    <message>
        <source>Each request carries x-request-id: the prefix and its number.</source>
        <translation>Each request carries x-request-id: the prefix and its number.</translation>
    </message>
    <message>
        <source>the model&apos;s, else Qwen3</source>
        <translation>the model&apos;s, else Qwen3</translation>
    </message>
    <message>
        <source>A tokenizer.json, or a folder holding one, to count prompt and output tokens as the served model does.</source>
        <translation>A tokenizer.json, or a folder holding one, to count prompt and output tokens as the served model does.</translation>
    </message>
    <message>
        <source>not asked</source>
        <translation>not asked</translation>
    </message>
    <message>
        <source>Log-probabilities to ask for with each token (completions).</source>
        <translation>Log-probabilities to ask for with each token (completions).</translation>
    </message>
    <message>
        <source>Give a number of seconds (0 skips the test request), or leave it empty for one try.</source>
        <translation>Give a number of seconds (0 skips the test request), or leave it empty for one try.</translation>
    </message>
    <message>
        <source>there is no file or folder %1. Give a tokenizer.json or its folder, or leave it empty.</source>
        <translation>there is no file or folder %1. Give a tokenizer.json or its folder, or leave it empty.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a count. Give a whole number, or leave it empty.</source>
        <translation>&quot;%1&quot; is not a count. Give a whole number, or leave it empty.</translation>
    </message>
</context>
<context>
    <name>ayar::ResultsPage</name>
    <message>
        <source>End-to-end latency</source>
        <translation>End-to-end latency</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>requests</translation>
    </message>
    <message>
        <source>CDF (%)</source>
        <translation>CDF (%)</translation>
    </message>
    <message>
        <source>No run shown yet: start one from Setup or open one from History.</source>
        <translation>No run shown yet: start one from Setup or open one from History.</translation>
    </message>
    <message>
        <source>The run failed before its first request:
%1</source>
        <translation>The run failed before its first request:
%1</translation>
    </message>
    <message>
        <source>The engine&apos;s log: %1</source>
        <translation>The engine&apos;s log: %1</translation>
    </message>
    <message>
        <source>token intervals</source>
        <translation>token intervals</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>The run failed: %1</translation>
    </message>
    <message>
        <source>How the file was read:</source>
        <translation>How the file was read:</translation>
    </message>
</context>
<context>
    <name>ayar::RunSummaryModel</name>
    <message>
        <source>Value</source>
        <translation>Value</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>Unit</translation>
    </message>
</context>
<context>
    <name>ayar::SetupPanel</name>
    <message>
        <source>Model folder (config.json, *.safetensors)</source>
        <translation>Model folder (config.json, *.safetensors)</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Engine flags</source>
        <translation>Engine flags</translation>
    </message>
    <message>
        <source>Load profile</source>
        <translation>Load profile</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Device</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>Program</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>API key variable</source>
        <translation>API key variable</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API key</translation>
    </message>
    <message>
        <source>Extra arguments</source>
        <translation>Extra arguments</translation>
    </message>
    <message>
        <source>Command line</source>
        <translation>Command line</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <source>Bundled (ayar-engine)</source>
        <translation>Bundled (ayar-engine)</translation>
    </message>
    <message>
        <source>External engine (command template)</source>
        <translation>External engine (command template)</translation>
    </message>
    <message>
        <source>Remote endpoint</source>
        <translation>Remote endpoint</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>Folder…</translation>
    </message>
    <message>
        <source>Hugging Face id or folder</source>
        <translation>Hugging Face id or folder</translation>
    </message>
    <message>
        <source>the template&apos;s program</source>
        <translation>the template&apos;s program</translation>
    </message>
    <message>
        <source>empty: the first model the server lists</source>
        <translation>empty: the first model the server lists</translation>
    </message>
    <message>
        <source>typed here: used for this session only</source>
        <translation>typed here: used for this session only</translation>
    </message>
    <message>
        <source>Remember the typed key on this computer</source>
        <translation>Remember the typed key on this computer</translation>
    </message>
    <message>
        <source>arguments passed as written</source>
        <translation>arguments passed as written</translation>
    </message>
    <message>
        <source>The engine&apos;s command line. Edit it and press Enter: the flags go back into the form. The port is picked when the run starts.</source>
        <translation>The engine&apos;s command line. Edit it and press Enter: the flags go back into the form. The port is picked when the run starts.</translation>
    </message>
    <message>
        <source>baseline, prefix caching on, ...</source>
        <translation>baseline, prefix caching on, ...</translation>
    </message>
    <message>
        <source>Start run</source>
        <translation>Start run</translation>
    </message>
    <message>
        <source>Keep the start of the command line as it is (%1): change the model, device or engine above, and flags after it.</source>
        <translation>Keep the start of the command line as it is (%1): change the model, device or engine above, and flags after it.</translation>
    </message>
    <message>
        <source>Requests and results</source>
        <translation>Requests and results</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>empty. Choose a preset such as %1, or a folder with config.json and *.safetensors (Folder…).</source>
        <translation>empty. Choose a preset such as %1, or a folder with config.json and *.safetensors (Folder…).</translation>
    </message>
    <message>
        <source>empty. Give a Hugging Face id or a model folder.</source>
        <translation>empty. Give a Hugging Face id or a model folder.</translation>
    </message>
    <message>
        <source>empty. Give the server&apos;s address, such as %1.</source>
        <translation>empty. Give the server&apos;s address, such as %1.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an http:// or https:// address, such as %2.</source>
        <translation>&quot;%1&quot; is not an http:// or https:// address, such as %2.</translation>
    </message>
    <message>
        <source>A run is going: Stop is in the Live area.</source>
        <translation>A run is going: Stop is in the Live area.</translation>
    </message>
</context>
<context>
    <name>ayar::StudiesPage</name>
    <message>
        <source>Run a study file</source>
        <translation>Run a study file</translation>
    </message>
    <message>
        <source>Study files (*.json);;All files (*)</source>
        <translation>Study files (*.json);;All files (*)</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export the study report</source>
        <translation>Export the study report</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Report written to %1</translation>
    </message>
    <message>
        <source>Run preset</source>
        <translation>Run preset</translation>
    </message>
    <message>
        <source>Run the study preset chosen above (resources/studies)</source>
        <translation>Run the study preset chosen above (resources/studies)</translation>
    </message>
    <message>
        <source>Run a study file…</source>
        <translation>Run a study file…</translation>
    </message>
    <message>
        <source>A study JSON file: a baseline, its variants, the profiles, the deciding figure</source>
        <translation>A study JSON file: a baseline, its variants, the profiles, the deciding figure</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Resume</translation>
    </message>
    <message>
        <source>Continue the selected stopped or interrupted study; finished cells are kept</source>
        <translation>Continue the selected stopped or interrupted study; finished cells are kept</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Stop the study: the cell in progress is cut, finished cells are kept</source>
        <translation>Stop the study: the cell in progress is cut, finished cells are kept</translation>
    </message>
    <message>
        <source>Serving command</source>
        <translation>Serving command</translation>
    </message>
    <message>
        <source>Report language</source>
        <translation>Report language</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Export report…</translation>
    </message>
    <message>
        <source>PDF, HTML, Markdown, CSV or JSON, in the report language beside it</source>
        <translation>PDF, HTML, Markdown, CSV or JSON, in the report language beside it</translation>
    </message>
    <message>
        <source>A study is running: stop it before starting another.</source>
        <translation>A study is running: stop it before starting another.</translation>
    </message>
    <message>
        <source>Cannot start the study: %1</source>
        <translation>Cannot start the study: %1</translation>
    </message>
    <message>
        <source>Study #%1 started</source>
        <translation>Study #%1 started</translation>
    </message>
    <message>
        <source>A study is running: stop it before resuming another.</source>
        <translation>A study is running: stop it before resuming another.</translation>
    </message>
    <message>
        <source>Study #%1 is not in the store</source>
        <translation>Study #%1 is not in the store</translation>
    </message>
    <message>
        <source>Study #%1 is %2: only a stopped or interrupted study resumes</source>
        <translation>Study #%1 is %2: only a stopped or interrupted study resumes</translation>
    </message>
    <message>
        <source>Study #%1 resumed: finished cells are kept</source>
        <translation>Study #%1 resumed: finished cells are kept</translation>
    </message>
    <message>
        <source>Stopping the study: the cell in progress is cut, finished cells are kept</source>
        <translation>Stopping the study: the cell in progress is cut, finished cells are kept</translation>
    </message>
    <message>
        <source>No study shown: run a preset or a study file, or choose a study in the list.</source>
        <translation>No study shown: run a preset or a study file, or choose a study in the list.</translation>
    </message>
    <message>
        <source>%1 of %2 cells done</source>
        <translation>%1 of %2 cells done</translation>
    </message>
    <message>
        <source>Cell %1 of %2: %3 on %4</source>
        <translation>Cell %1 of %2: %3 on %4</translation>
    </message>
    <message>
        <source>%1 of %2 requests finished</source>
        <translation>%1 of %2 requests finished</translation>
    </message>
    <message>
        <source>Starting the next configuration&apos;s engine…</source>
        <translation>Starting the next configuration&apos;s engine…</translation>
    </message>
    <message>
        <source>Study #%1 failed: %2</source>
        <translation>Study #%1 failed: %2</translation>
    </message>
    <message>
        <source>Study #%1 stopped; finished cells are kept. Resume continues it.</source>
        <translation>Study #%1 stopped; finished cells are kept. Resume continues it.</translation>
    </message>
    <message>
        <source>Study #%1 finished</source>
        <translation>Study #%1 finished</translation>
    </message>
    <message>
        <source>The report appears here when the study has finished.</source>
        <translation>The report appears here when the study has finished.</translation>
    </message>
    <message>
        <source>The report appears here once a study has finished cells.</source>
        <translation>The report appears here once a study has finished cells.</translation>
    </message>
    <message>
        <source>No recommendation yet: the study has option cells left to run.</source>
        <translation>No recommendation yet: the study has option cells left to run.</translation>
    </message>
    <message>
        <source>Recommended: %1 (no option beat the baseline)</source>
        <translation>Recommended: %1 (no option beat the baseline)</translation>
    </message>
    <message>
        <source>Recommended: %1, %2 (%3)</source>
        <translation>Recommended: %1, %2 (%3)</translation>
    </message>
    <message>
        <source>Choose a study first, then export its report.</source>
        <translation>Choose a study first, then export its report.</translation>
    </message>
    <message>
        <source>The smoke preset shows a whole study in about a minute on any machine: two configurations of the bundled engine&apos;s timing simulator, each on a small profile, then the faster one beside the baseline on a second profile.</source>
        <translation>The smoke preset shows a whole study in about a minute on any machine: two configurations of the bundled engine&apos;s timing simulator, each on a small profile, then the faster one beside the baseline on a second profile.</translation>
    </message>
</context>
<context>
    <name>ayar::StudyGridModel</name>
    <message>
        <source>pending</source>
        <translation>pending</translation>
    </message>
    <message>
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <source>done</source>
        <translation>done</translation>
    </message>
    <message>
        <source>engine did not start</source>
        <translation>engine did not start</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>Not part of the study: only the baseline and the recommended configuration run the follow-up profiles</source>
        <translation>Not part of the study: only the baseline and the recommended configuration run the follow-up profiles</translation>
    </message>
    <message>
        <source>running… %1%</source>
        <translation>running… %1%</translation>
    </message>
    <message>
        <source>%1 than the baseline</source>
        <translation>%1 than the baseline</translation>
    </message>
    <message>
        <source>Run #%1: double-click to open it in Results</source>
        <translation>Run #%1: double-click to open it in Results</translation>
    </message>
    <message>
        <source>%1 (follow-up)</source>
        <translation>%1 (follow-up)</translation>
    </message>
    <message>
        <source>Profile %1, run by the baseline and the recommended configuration once the options are measured</source>
        <translation>Profile %1, run by the baseline and the recommended configuration once the options are measured</translation>
    </message>
    <message>
        <source>Profile %1, run by every configuration</source>
        <translation>Profile %1, run by every configuration</translation>
    </message>
    <message>
        <source>The baseline: every option is measured against it</source>
        <translation>The baseline: every option is measured against it</translation>
    </message>
    <message>
        <source>The recommended configuration</source>
        <translation>The recommended configuration</translation>
    </message>
</context>
<context>
    <name>ayar::StudyListModel</name>
    <message>
        <source>Resume continues it; finished cells are kept</source>
        <translation>Resume continues it; finished cells are kept</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 of %2</translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
    <message>
        <source>Study</source>
        <translation>Study</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Cells done</source>
        <translation>Cells done</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Started</translation>
    </message>
</context>
</TS>
