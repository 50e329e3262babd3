import { describe, expect, it } from "vitest";
import { findDistrict, findProvince, PROVINCES, provinceOf } from "./places";

describe("Nepal's places", () => {
  it("are seven provinces and 77 districts, each district in one province", () => {
    expect(PROVINCES).toHaveLength(7);
    const districts = PROVINCES.flatMap((p) => [...p.districts]);
    expect(districts).toHaveLength(77);
    expect(new Set(districts).size).toBe(77);
  });

  it("are found whatever the letter case and spaces, and nothing else is", () => {
    expect(findProvince(" bagmati ")).toBe("Bagmati");
    expect(findProvince("Chitwan Riders")).toBeUndefined();
    expect(findDistrict("nawalparasi  east")).toBe("Nawalparasi East");
    expect(findDistrict("New District")).toBeUndefined();
    expect(provinceOf("Chitwan")).toBe("Bagmati");
    expect(provinceOf("Kaski")).toBe("Gandaki");
  });
});
