"""archive/ and literature/. Hand-written for memsearch, CC0."""

F: dict[str, str] = {}


def add(path: str, text: str) -> None:
    F[path] = text.lstrip("\n")


# ---------------------------------------------------------------- archive

add("archive/opening-hours-history.md", """
# Opening hours (superseded)

### 2023-01-16
Tue-Sat 10:00-18:00. Wednesday evening volunteers 18:00-21:00. Closed Sun and Mon.

---

### 2023-11-06
Winter: same hours, but Saturday close brought forward to 16:00 Nov-Feb. Didn't stick; nobody remembered.

---

### 2024-04-02
Saturday back to 10:00-18:00 all year. Wednesday evening shortened to 20:30 (the bus).
""")

add("archive/phone-and-contacts-2023.md", """
# Contacts sheet, 2023 (superseded)

### 2023-01-10
- co-op: 01632 960142 (forwards to Jo's mobile after hours)
- Jo: flat 3, 11 Gull Terrace, Port Calder
- Oz: mobile on the staff sheet
- Velotrade rep: Ruben C, direct line

---

### 2023-06-01
Added the Harbour Loop inbox. Forwarding on the co-op line now rings for 20 s before voicemail.
""")

add("archive/kettle-decisions-2023.md", """
# Kettle decisions, 2023 (superseded)

### 2023-02-06
Mid-drive, bought-in motor; our own board and pack. First board from BoardHaus.

---

### 2023-06-12
Bench config for rev A:
```ini
CURRENT_LIMIT_A = 18
ASSIST_RAMP_MS = 250
```
Fen: "18 A is plenty and the FETs are rated for more."

---

### 2023-11-14
Rev B to run sensorless field-oriented control with an observer. Position sensors out of the motor harness.
Start from rest to be handled open-loop. (Reversed in March 2024, see journal.)
""")

add("archive/tally-postgres-plan.md", """
# Tally: Postgres migration plan (abandoned)

### 2024-01-08
Why: `sqlite3.OperationalError: database is locked` several times a day when the nightly stock job
overlaps with tablet reads.

Plan:
1. Postgres 16 on the Larchbox VPS
2. dump SQLite, load, run both for two weeks, compare
3. cut over Easter Monday

---

### 2024-04-16
Abandoned. WAL mode fixed the lock errors with one line. Keeping SQLite. Plan kept here for the record.
""")

add("archive/house-hunt-2024.md", """
# House hunt, 2024 (done)

## April 2024
Viewed nine. Two possibles: Orchard Rise (garden, near work) and Beacon Road (cheaper, on the bus
route, tiny kitchen). Mortgage in principle through.

## May 2024
Offer on 22 Orchard Rise accepted on the 28th. Solicitor instructed. Survey booked.

## June 2024
Survey report ref SRV/0913/OR: cracking to the rear wall, "consistent with subsidence", further
investigation recommended. Withdrew on the 24th. Lost the survey fee and half the solicitor's.

## July 2024
Back to the listings. New rule: survey before we fall in love, not after.
""")

add("archive/velotrade-orders.md", """
# Velotrade orders (account closed)

### 2023-03-14
Standing order every Tuesday: tubes, pads, cables. Next-day as standard. Ruben C very helpful.

---

### 2023-10-10
Winter stock: 40 tyres, 60 tubes, lights. All arrived next day.

---

### 2024-02-13
Brake pads 6 days late. Chains 8 days late. Ruben apologetic; warehouse move "nearly done".

---

### 2024-04-23
Rims, 11 days. Three bikes waiting. Jo starts looking for another wholesaler.
""")

add("archive/volunteer-rota-2024.md", """
# Volunteer rota, 2024 (superseded)

## January 2024
Coordinator: Lachlan (Lockie). Saturdays two sessions, Wednesdays one. 23 active volunteers.

## February 2024
New induction (six steps) goes live. Lachlan runs the first three inductions himself.

## March 2024
Spreadsheet rota retired for Tally sign-ups. Lachlan keeps the spreadsheet "just in case".
""")

add("archive/harbour-loop-2023.md", """
# Harbour Loop 2023 (first ride)

### 2023-06-18
Debrief. 40 km route was right for a first year. Next time: longer, a hill, a second sweep, and toilets
at the halfway point (one family, one emergency, one very kind cafe).

---

### 2023-07-04
Money counted and banked: 1,930 pounds. Thank-you email to riders drafted and sent by Jo.
""")

add("archive/health-notes-2023.md", """
# Health notes, 2023 (superseded)

### 2023-09-12
Jo: levothyroxine 50 mcg, mornings. GP Dr Okonjo, Quayside Medical Practice, 01632 960350.

---

### 2023-11-07
Recheck: TSH down a little, "give it time". Same dose.
""")

add("archive/old-door-codes.md", """
# Door and alarm, old (superseded)

### 2023-01-16
Front keypad 4417. Alarm code separate, keyholders only. Spare key in the lockbox at the Annex.

---

### 2023-08-30
Keypad battery replaced. Code unchanged.
""")

add("archive/harbour-loop-september-idea.md", """
# Harbour Loop in September (abandoned)

### 2025-01-13
Committee: move the 2025 ride to September, for the heat and the marshals' weddings.

---

### 2025-03-18
Dropped. Marina festival takes the sea wall in September; insurer wants more notice. Stays in June.
""")

# ---------------------------------------------------------------- literature

add("literature/harbour-tales.md", """
# Harbour Tales

Bedtime stories for Tobi. He chooses the chapter; I do the voices. Written down so they stay the same.

## Chapter 1: The Gull Who Kept Time
There was a gull on the harbour wall who believed the tide came in because he shouted at it. Every
morning he shouted, and every morning the water rose, and he was very proud. One day he had a sore
throat and said nothing at all, and the tide came in anyway, and he sulked until teatime. Then a little
crab told him: "The sea doesn't need you. But I like listening." So he shouted for the crab instead.

## Chapter 2: The Lighthouse Kettle
The lighthouse keeper had one kettle, very old, with a whistle like a ship. On foggy nights she put it
on the stove at the top of the tower and the whistle went out over the water, and the fishing boats
came home by the sound. When the new electric horn arrived, everyone said the kettle could retire.
The keeper kept boiling it anyway. "The horn is for ships," she said. "The kettle is for me."

## Chapter 3: The Dog Who Counted Waves
A grey dog with long legs sat on the beach every evening and counted waves. He could count to seven,
and then he started again, so every wave was one of seven. A boy asked him why. "Because seven is
enough," said the dog. "After seven you stop counting and start watching." The boy tried it. It worked.

## Chapter 4: The Night Ferry
The night ferry only ran for people who couldn't sleep. It went nowhere, very slowly, and came back.
The ferryman served cocoa and told no stories at all, and by the time the boat bumped the slipway,
every passenger was asleep and had to be carried off, gently, one by one.
""")

add("literature/the-ferrymans-daughter/01-slipway.md", """
---
title: "The Ferryman's Daughter, chapter 1: The Slipway"
---
# The Slipway

Ines was eleven when her father first let her take the oars. The slipway at Tarn Mouth was green with
weed and steeper than it looked, and the ferry was a clinker boat he'd built the winter she was born.

"Feel the water before you fight it," he said, and sat in the stern with his arms folded, pretending
not to watch.

She pulled. The boat went sideways. He said nothing. She pulled again, softer, and the bow came round,
and the far bank, which had always been his, began very slowly to be hers.
""")

add("literature/the-ferrymans-daughter/02-fog.md", """
---
title: "The Ferryman's Daughter, chapter 2: Fog"
---
# Fog

The fog came in on a Thursday, the way it does, from the sea and all at once. Her father was across
the estuary with the doctor's bag for the Pryce farm, and the bell on the far jetty was ringing for
the ferry.

Ines counted the strokes from memory: forty to the channel marker, sixty to the sandbar, twenty more
and listen. She could not see the bow. She could hear the bell, and under it, her own breath, and under
that the tide, taking her gently left.
""")

add("literature/the-ferrymans-daughter/03-crossing.md", """
---
title: "The Ferryman's Daughter, chapter 3: The Crossing"
---
# The Crossing

It was the doctor who rang the bell, not her father. Her father was on the jetty with his ankle in a
sack of ice, swearing, and when the bow came out of the fog he stopped swearing and did not start again.

Later, in the kitchen, he said the boat was hers when she wanted it. She said she didn't want it yet.
He said that was the right answer and that was why.
""")

add("literature/low-water.md", """
# Low Water

At low water the harbour shows its workings:
the chains, the tyres, the bicycle
somebody swore they'd fetch in spring.

Gulls read the mud like a ledger.
The boats lie down like tired dogs.
Nothing is hidden, only waiting

for the sea to come back
and make it beautiful again,
and make it hard to reach.
""")

add("literature/truing.md", """
# Truing

Quarter turn, and listen.
The wheel tells you where it hurts
if you spin it slow enough.

Too tight on one side
and the rim walks away from you;
too loose, it sings flat.

Nobody is straight.
You want every spoke pulling
a little, and none alone.
""")
