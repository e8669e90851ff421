"""reference/: glossary, people, household, projects. Hand-written for memsearch, CC0."""

F: dict[str, str] = {}


def add(path: str, text: str) -> None:
    F[path] = text.lstrip("\n")


add("reference/glossary.md", """
---
title: Glossary
aliases: [abbreviations, who's who]
tags: [reference, glossary]
entities: [Ratchet Street Bike Co-op, Kettle, Tally, Harbour Loop]
updated: 2025-09-30
---
# Glossary

Short names that turn up in the journal and the co-op chat. If a name is ambiguous I say which one.

## People
- **Oz**: Osei Mensah, lead mechanic. See [[osei-mensah]].
- **Fen**: Fenna de Vries, does the Kettle firmware. Not to be confused with the fen (the marsh past
  the bypass) or Fenwick Lane.
- **Lockie**: Lachlan Burke, volunteer coordinator until spring 2025.
- **Immy**: Imogen Price, volunteer coordinator after Lachlan.
- **Bea**: Beatrix Halloran, treasurer for six years.
- **Pai**: Aurelio Ferreira, Jo's dad (Portuguese for "dad"; Jo uses it, so I do).
- **Nan Bisi**: Adebisi Oyelaran, Mags's mum, visits from Harwick a few times a year.
- **Doc S**: Dr Sato, Jo's GP at Larchfield.
- **Roo**: Ruben, the dog. Ruben Castellanos (the Velotrade rep) is never Roo.
- **Gus**: Gus Adeyemi, head marshal for the ride.

## Places
- **the Annex**: unit 4 at the Old Fish Market, the second workshop. The Fish Market unit has the
  bench for Kettle work and the cargo bike bays.
- **the Station**: Port Calder Marine Station, where Mags works.
- **bay 2**: the back bay at Ratchet Street with the big lift.

## Things
- **RSBC**: Ratchet Street Bike Co-op.
- **NCS**: Northgate Cycle Supply, parts wholesaler.
- **KCB**: the Kettle controller board (the motor driver PCB).
- **TSU**: torque sensor unit, the bottom-bracket sensor on Kettle bikes.
- **the brick**: the Kettle battery pack. Jo named it after dropping one on her foot.
- **Big Ed**: the hydraulic workstand in bay 2. Named after the man who donated it.
- **HL**: the Harbour Loop, our charity ride.
- **levo**: levothyroxine, Jo's thyroid tablet.
- **OTR**: "on the rack", Tally's status for a bike waiting on parts.
- **the Wednesday lot**: the Wednesday evening volunteers (wheels, brakes, tea).
- **PO**: purchase order. Numbered PO-YY-MMDD, one per day at most.
- **FOC**: field-oriented control. Tried it sensorless on Kettle; went back.
- **WAL**: write-ahead log, an SQLite journal mode.
""")

add("reference/people/jo-ferreira.md", """
---
title: Jo Ferreira
aliases: [Jo, Joana, JF]
tags: [person, household, coop]
entities: [Jo Ferreira, Ratchet Street Bike Co-op, Mags, Tobi]
updated: 2025-10-02
---
# Jo Ferreira

Joana Ferreira. Everyone says Jo. Co-founder and coordinator of the Ratchet Street Bike Co-op
(see [[ratchet-street-workshop]]). Born in Lower Tarn, 1984.

- home: 7 Fenwick Lane, Port Calder (moved in Sept 2024; details in [[fenwick-lane]])
- mobile 07700 900318
- partner: [[mags-oyelaran]]; son: [[tobi]]; dad: [[aurelio-ferreira]]; dog: [[ruben]]
- GP: [[dr-sato]]; thyroid notes in [[thyroid]]
- swims with the [[dawn-dippers]] most weekdays Apr-Oct, less in winter

## Projects
- [[kettle]]: e-assist retrofit for the co-op's cargo bikes
- [[tally]]: the booking and stock app she wrote over a winter
- [[harbour-loop]]: the June charity ride
- [[house-move]]: done, mostly; the loft is still boxes

## How she likes things
Answer first. Hates being asked the same question twice. Coffee before anything, but see thyroid.
Left knee grumbles on stairs (physio: [[knee-rehab]]).
""")

add("reference/people/mags-oyelaran.md", """
---
title: Mags Oyelaran
aliases: [Mags, Marguerite]
tags: [person, household]
entities: [Marguerite Oyelaran, Port Calder Marine Station]
updated: 2025-06-30
---
# Mags Oyelaran

Marguerite Oyelaran, Jo's partner since 2012. Tide-gauge and instrument technician at the
[[marine-station]]. On call one week in four; on-call weeks are blocked in the family calendar in teal.

- mobile 07700 900274
- mum: Adebisi ("Nan Bisi"), in Harwick
- allergic to penicillin (hers to share; she told me to note it for emergencies)
- hates surprise parties. Truly.

Good at: soldering, knots, staying calm at A&E. Does the Saturday big shop.
""")

add("reference/people/tobi.md", """
---
title: Tobi
aliases: [Tobiah, T]
tags: [person, household, school]
entities: [Tobiah Ferreira-Oyelaran, Saltings Primary]
updated: 2025-09-02
---
# Tobi

Tobiah Ferreira-Oyelaran, born 2016. Year 5 at [[saltings-primary]] from Sept 2025 (teacher: Mr Achebe).

## Weekly
| day | what |
|---|---|
| Mon | Jo pickup |
| Tue | Mags pickup; library |
| Thu | swimming, Thursdays at 16:30, Calder Baths (since Sept 2025) |
| Sat | co-op kids' session with Jo, if he wants |

## Notes
- likes trains, tide tables (Mags's fault), the stories in Harbour Tales
- can't eat kiwi (mouth itches, not anaphylaxis)
- reading well above age; maths "fine, boring"
""")

add("reference/people/aurelio-ferreira.md", """
---
title: Aurelio Ferreira
aliases: [Pai, Dad, Senhor Ferreira]
tags: [person, family, health]
entities: [Aurelio Ferreira, Lower Tarn]
updated: 2025-10-17
---
# Aurelio Ferreira

Jo's father. Retired boatbuilder, 76, lives alone in [[lower-tarn]] in the house Jo grew up in.
Portuguese first, English second, swearing in both.

- heart failure diagnosed 2022; medication list in [[pai-medication]]
- landline 01632 960455; no mobile he'll answer
- carers from Tarnside Home Care, twice daily since Oct 2025
- agreed (phone, 2024) that I keep his medication list and appointments

Likes: sardines, the radio, being asked about boats. Dislikes: being asked how he is.
""")

add("reference/people/osei-mensah.md", """
---
title: Osei Mensah
aliases: [Osei]
tags: [person, coop, staff]
entities: [Osei Mensah, Ratchet Street Bike Co-op]
updated: 2024-10-20
---
# Osei Mensah

Lead mechanic at the co-op since 2019. Paid staff, 4 days (Tue-Fri). Best wheel builder in the county
and will tell you so.

- mobile 07700 900562
- taught the volunteers his wheel check: [[spoke-tension-mapping]]
- keeps the lift in bay 2 running ([[big-ed]])
- tests every Kettle build on the hill behind the gasworks before it goes out

Prefers messages to calls. Doesn't do Saturdays since Oct 2024 (the wrist, then he liked it).
""")

add("reference/people/fenna-de-vries.md", """
---
title: Fenna de Vries
aliases: [Fenna]
tags: [person, kettle, contractor]
entities: [Fenna de Vries, Kettle]
updated: 2025-10-17
---
# Fenna de Vries

Freelance embedded engineer. Writes and owns the Kettle firmware ([[kettle-firmware]]). Works from the
bench at the Annex on Tuesdays and Thursdays, remote otherwise.

- day rate 380 pounds, invoices monthly to Hollis
- loads boards the way she documented in [[swd-flashing]]
- mobile 07700 900641; Signal preferred
- Dutch; cycles a 1978 Gazelle that Oz is not allowed to touch
""")

add("reference/people/lachlan-burke.md", """
---
title: Lachlan Burke
aliases: [Lachlan]
tags: [person, coop, volunteers]
entities: [Lachlan Burke]
updated: 2025-04-03
---
# Lachlan Burke

Volunteer coordinator from 2021 to April 2025. Moved to Inverkell for his partner's job.
Built the induction we still use ([[volunteer-induction]]). Still answers questions about the
old rota spreadsheet if you buy him a pint by post.
""")

add("reference/people/imogen-price.md", """
---
title: Imogen Price
aliases: [Imogen]
tags: [person, coop, volunteers]
entities: [Imogen Price]
updated: 2025-09-16
---
# Imogen Price

Volunteer coordinator since April 2025. Former primary teacher; runs the rota like a classroom, which
works. See [[volunteer-rota]].

- mobile 07700 900733
- wants a winter plan for Wednesdays when the light goes
""")

add("reference/people/beatrix-halloran.md", """
---
title: Beatrix Halloran
aliases: [Beatrix]
tags: [person, coop, finance]
entities: [Beatrix Halloran]
updated: 2025-03-08
---
# Beatrix Halloran

Co-op treasurer 2019 to March 2025. Retired bookkeeper, exacting, funny once you're past the first
audit. Designed the [[purchase-orders]] process. Still a member; does the Saturday till sometimes.
""")

add("reference/people/hollis-tran.md", """
---
title: Hollis Tran
aliases: [Hollis]
tags: [person, coop, finance]
entities: [Hollis Tran]
updated: 2025-03-10
---
# Hollis Tran

Treasurer of the co-op, elected at the AGM in March 2025 (took over from Beatrix). Day job: payroll at
the council. Runs the [[month-end-close]].

- approves POs over 250 pounds
- prefers a spreadsheet to an app, every time
""")

add("reference/people/ruben-castellanos.md", """
---
title: Ruben Castellanos
aliases: [Ruben C]
tags: [person, vendor]
entities: [Ruben Castellanos, Velotrade]
updated: 2024-05-20
---
# Ruben Castellanos

Sales rep at [[velotrade]], our wholesaler until May 2024. Genuinely helpful; the delays weren't his
fault. Yes, the dog has the same name. No, we did not name the dog after him; the dog came first.

- direct line 01632 960377
- still sends a Christmas card
""")

add("reference/people/dr-sato.md", """
---
title: Dr Sato
aliases: [Kenji Sato]
tags: [person, health]
entities: [Dr Kenji Sato, Larchfield Surgery]
updated: 2024-10-14
---
# Dr Sato

Dr Kenji Sato, Jo's GP since she registered at [[larchfield-surgery]] after the move (Oct 2024).
Unhurried, reads the notes before you arrive. Does the thyroid reviews himself.
""")

add("reference/household/ruben.md", """
---
title: Ruben
aliases: [Roo, the hound]
tags: [household, dog]
entities: [Ruben]
updated: 2025-06-30
---
# Ruben

Lurcher, rescue, about six. Grey and brindle, all legs. Came from the shelter in Harwick in 2020.

- vet: [[linnet-vets]] (since Nov 2024)
- food: fish-based kibble only, chicken upsets him
- booster due January 2026
- walks: Jo mornings, Tobi and Mags after school; Thursday walker when Jo is at the Annex

Steals socks. Scared of the lift in bay 2.
""")

add("reference/projects/kettle.md", """
---
title: Kettle
aliases: [Kettle project, the e-assist]
tags: [project, hardware, firmware]
entities: [Kettle, Fenna de Vries, Crumb & Co]
updated: 2025-10-17
---
# Kettle

An open, repairable e-assist retrofit for the co-op's cargo bikes. Mid-drive motor, our own controller,
a torque sensor, a battery pack we can rebuild on the bench. Started Feb 2023 with Fen.

The name: the first prototype's electronics lived in the base of a dead cordless kettle.

## Components
- [[kettle-controller-board]]: the KCB, motor driver
- [[torque-sensor-unit]]: the TSU in the bottom bracket
- [[battery-pack]]: the brick
- [[kettle-firmware]]: Fen's code

## Status
Pilot with Crumb & Co (the bakery on Quay Street) since Aug 2025: three of their cargo bikes run Kettle.
Riders report weekly. Next: a build guide so other co-ops can make it.

See also [the bench setup](../places/the-annex.md).
""")

add("reference/projects/tally.md", """
---
title: Tally
aliases: [Tally app]
tags: [project, software]
entities: [Tally, Ratchet Street Bike Co-op]
updated: 2025-07-15
---
# Tally

The co-op's booking and parts-stock web app. Jo wrote it in the winter of 2022-23; live since May 2023.
Python, Flask, SQLite, about 6k lines. Volunteers use it on the workshop tablet.

## Parts
- [[booking-queue]]: repair slots, who's on which bike
- [[sms-reminders]]: "your bike is ready" texts
- [[parts-sync]]: pulls the wholesaler's stock list
- [[tally-server]]: where it runs

Issues are TAL-nnn in the repo tracker.
""")

add("reference/projects/harbour-loop.md", """
---
title: Harbour Loop
aliases: [HL, the ride]
tags: [project, event, fundraising]
entities: [Harbour Loop, Gus Adeyemi]
updated: 2025-06-16
---
# Harbour Loop

Annual charity ride in June, raising money for the kids' bike library. Started 2023.

- route: 55 km, out over [[calder-headland]] and back along the sea wall (since 2024)
- route file: harbour_loop_55k_v3.gpx on the shared drive
- head marshal: Gus Adeyemi; last rider rules in [[sweep-rider-protocol]]
- entry 15 pounds, kids free

## Years
| year | date | riders | raised |
|---|---|---|---|
| 2023 | 17 June | 64 | 1,930 |
| 2024 | 15 June | 141 | 4,210 |
| 2025 | 14 June | 212 | 6,075 |

We talked about moving it to September in 2025 and didn't; June stays.
""")

add("reference/projects/house-move.md", """
---
title: House move
aliases: [the move]
tags: [project, household]
entities: [Fenwick Lane, Gull Terrace, Orchard Rise]
updated: 2024-11-30
---
# House move

From the flat at [[gull-terrace]] to a house. Hunted spring 2024. The first house (Orchard Rise) fell
through on the survey; we bought [[fenwick-lane]] instead and moved on 20 September 2024.

- builders for the kitchen and damp: [[crane-and-daughters]]
- the long version: [house hunt archive](../../archive/house-hunt-2024.md)
- still to do: loft boards, shed roof, the back gate that sticks
""")
